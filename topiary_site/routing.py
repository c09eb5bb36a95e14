"""Websocket routes, gathered from every app that has a ``routing`` module."""

from importlib import import_module
from importlib.util import find_spec

from django.conf import settings

websocket_urlpatterns: list = []
for _app in settings.LOCAL_APPS:
    if find_spec(f"{_app}.routing") is not None:
        websocket_urlpatterns += import_module(f"{_app}.routing").websocket_urlpatterns
