from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/login/code/", views.login_code, name="login_code"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("account/settings/", views.account_settings, name="settings"),
    path("account/email/", views.email_change, name="email_change"),
    path("account/email/confirm/<str:token>/", views.email_confirm, name="email_confirm"),
    path("account/two-factor/", views.two_factor, name="two_factor"),
    path("account/close/", views.account_close, name="close"),
    path("account/export/", views.data_export, name="export"),
    path("account/vacation/", views.vacation, name="vacation"),
    path("@/<str:username>/", views.profile, name="profile"),
    path("@/<str:username>/follow", views.follow, name="follow"),
    path("@/<str:username>/block", views.block, name="block"),
]
