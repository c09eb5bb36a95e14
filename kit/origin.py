"""The websocket Origin check: the page's origin must be the site the socket connects to.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name
with ``ALLOWED_HOSTS``, so a page served from another port of an allowed host
(another service on the same machine) could open sockets with the visitor's
session. Here the Origin must also name the same port as the request's ``Host``
(a scheme's default port counts as named), or be listed in ``CSRF_TRUSTED_ORIGINS``
for proxies that rewrite ``Host``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """May a page of ``origin`` open a socket on the server addressed as ``host``?"""
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    if not parts.hostname or not validate_host(parts.hostname, settings.ALLOWED_HOSTS):
        return False
    if host is None:
        # No Host header (only in-process test clients): the host name check must do.
        return True
    host_name, host_port = split_domain_port(host)
    if host_name != parts.hostname.lower():
        return False
    return (int(host_port) if host_port else DEFAULT_PORTS.get(parts.scheme)) == origin_port


class SameOriginValidator:
    """ASGI middleware refusing websocket handshakes from any other origin (HTTP 403)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(
            _header(scope, b"origin"), _header(scope, b"host")
        ):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
