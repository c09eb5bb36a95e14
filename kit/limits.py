"""ASGI middleware bounding what one HTTP request may cost the process.

- A request whose declared body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` gets 413
  without its body being kept (Django would read it whole, then fail with a logged
  ``RequestDataTooBig`` in the middle of a view), in the visitor's language as far as
  the request's cookie and ``Accept-Language`` tell it (no session is read here). The
  body is read and dropped first, up to ``DRAIN_BYTES``: uvicorn calls the application
  as soon as the headers are in, and a server that closes a connection with data still
  unread resets it, so a client still sending would see a reset instead of the 413. A
  client that asked to be told first (``Expect: 100-continue``) is answered at once and
  never sends the body.
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

from kit.language import visitor_language

log = logging.getLogger(__name__)

#: How much of a refused body is read and dropped so that its client hears the 413;
#: a client that sends more is answered anyway, and may see its connection reset.
DRAIN_BYTES = 32 * 1024 * 1024
#: How long a refused body's client gets to send it.
DRAIN_SECONDS = 30


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
    cookie = b"; ".join(value for key, value in scope.get("headers", []) if key == b"cookie")
    cookies = parse_cookie(cookie.decode("latin-1"))
    return visitor_language({"headers": scope.get("headers", []), "cookies": cookies})


async def _drain(scope, receive) -> None:
    """Read and drop the request's body, within ``DRAIN_BYTES`` and ``DRAIN_SECONDS``."""
    headers = scope.get("headers", [])
    if any(key == b"expect" and value.lower() == b"100-continue" for key, value in headers):
        return
    dropped = 0
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            while dropped <= DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                dropped += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return
    except TimeoutError:
        return


async def _too_large(scope, receive, send) -> None:
    await _drain(scope, receive)
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
            return await _too_large(scope, receive, send)
        if self.running is None:
            self.running = asyncio.Semaphore(settings.HTTP_CONCURRENCY)
        async with self.running:
            return await self.application(scope, receive, send)
