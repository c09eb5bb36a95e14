"""ASGI middleware bounding what one HTTP request may cost the process.

- A request whose declared body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` gets 413
  before its body is read (Django would read it whole, then fail with a logged
  ``RequestDataTooBig`` in the middle of a view), in the visitor's language as far as
  the request's cookie and ``Accept-Language`` tell it (no session is read here).
- At most ``HTTP_CONCURRENCY`` requests run in Django at once per process; the
  rest wait here, holding no thread and no database connection. Each running
  request's thread holds a pooled database connection, so without the bound a
  burst of page loads took every connection and froze every live game's socket.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation

log = logging.getLogger(__name__)


def _declared_length(scope) -> int | None:
    for key, value in scope.get("headers", []):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _language(scope) -> str:
    """The language of a refusal made before Django sees the request: the switcher's
    cookie, else ``Accept-Language`` (the order pages use, less the signed-in player's
    setting, which needs the session)."""
    from topiary_site.i18n import socket_language

    cookie = b"; ".join(value for key, value in scope.get("headers", []) if key == b"cookie")
    cookies = parse_cookie(cookie.decode("latin-1"))
    return socket_language({"headers": scope.get("headers", []), "cookies": cookies})


async def _too_large(scope, send) -> None:
    language = _language(scope)
    with translation.override(language):
        text = translation.gettext("Request body too large.")
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-language", language.encode("ascii")),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": f"{text}\n".encode()})


class HttpLimits:
    """Refuse oversized bodies, and run at most ``HTTP_CONCURRENCY`` requests at once."""

    def __init__(self, application):
        self.application = application
        self.running = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.application(scope, receive, send)
        length = _declared_length(scope)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length is not None and length > limit:
            log.warning("refused %s %s: body of %d bytes", scope["method"], scope["path"], length)
            return await _too_large(scope, send)
        if self.running is None:
            self.running = asyncio.Semaphore(settings.HTTP_CONCURRENCY)
        async with self.running:
            return await self.application(scope, receive, send)
