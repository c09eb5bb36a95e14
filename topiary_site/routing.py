"""Websocket routes, gathered from every app that has a ``routing`` module."""

from importlib import import_module
from importlib.util import find_spec

from django.conf import settings


def collect(apps: list[str]) -> list:
    """Every app's ``websocket_urlpatterns``, in the order of ``apps``."""
    patterns: list = []
    for app in apps:
        if find_spec(f"{app}.routing") is not None:
            patterns += import_module(f"{app}.routing").websocket_urlpatterns
    return patterns


websocket_urlpatterns = collect(settings.LOCAL_APPS)
