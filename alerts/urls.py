from django.urls import path

from alerts import views

app_name = "alerts"

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("account/alerts/", views.alerts_settings, name="settings"),
    path("account/alerts/push/", views.push_subscribe, name="push_subscribe"),
    path(
        "account/alerts/push/<int:subscription_id>/remove/", views.push_remove, name="push_remove"
    ),
    path("account/alerts/test/", views.push_test, name="push_test"),
    # ``token``: the log scrubber writes this route without it (kit.logs).
    path("alerts/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
