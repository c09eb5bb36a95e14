from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:kind>/", views.board, name="board"),
    path("<slug:kind>/bots/", views.board, {"bots": True}, name="bots"),
]
