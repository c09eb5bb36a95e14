"""Websocket routes of live play (gathered by topiary_site.routing)."""

from django.urls import path

from games import consumers, user_consumer

websocket_urlpatterns = [
    path("ws/game/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/me/", user_consumer.UserConsumer.as_asgi()),
]
