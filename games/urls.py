from django.urls import include, path

from games import views

app_name = "games"

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.table_new, name="table_new"),
    path("play/challenge/", views.challenge_new, name="challenge_new"),
    path("play/bots/", views.bot_game_new, name="bot_game_new"),
    # The parameter is named ``token``: the request log writes the route, never the token.
    path("play/invite/<str:token>/", views.invite, name="invite"),
    path("game/<int:game_id>/", views.game_page, name="game"),
    path("game/<int:game_id>/state.json", views.game_state, name="state"),
    path("game/<int:game_id>/move", views.game_move, name="move"),
    path("game/<int:game_id>/<str:action>", views.game_action, name="action"),
    path("", include("games.history_urls")),
]
