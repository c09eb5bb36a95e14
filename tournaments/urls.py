from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_new, name="new"),
    path("seasons/<str:kind>/", views.season_standings, name="season"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/join/", views.tournament_join, name="join"),
    path("<int:tournament_id>/withdraw/", views.tournament_withdraw, name="withdraw"),
    path("<int:tournament_id>/bots/", views.tournament_enter_bot, name="enter_bot"),
    path("<int:tournament_id>/start/", views.tournament_start, name="start"),
]
