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
    path("<int:tournament_id>/cancel/", views.tournament_cancel, name="cancel"),
    path("<int:tournament_id>/edit/", views.tournament_edit, name="edit"),
    path("<int:tournament_id>/bots/withdraw/", views.tournament_withdraw_bot, name="withdraw_bot"),
    path("<int:tournament_id>/next/", views.tournament_next_game, name="next_game"),
]
