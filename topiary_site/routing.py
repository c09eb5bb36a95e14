"""Websocket routes, gathered from the apps that serve live pages."""

websocket_urlpatterns: list = []
