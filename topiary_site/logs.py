"""Structured logs: who and what each log line is about, for the JSON formatter.

``python-json-logger`` writes the lines (settings ``LOGGING``); this module only
keeps the request id, the user id and the game id of the work in hand in context
variables, which follow a request or task across ``sync_to_async`` threads, and
copies them onto every record. Never log a state, a view or a move's tiles: only ids
and plies (hidden information must not reach the logs).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from contextlib import contextmanager
from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
user_id: ContextVar[int | None] = ContextVar("user_id", default=None)
game_id: ContextVar[int | None] = ContextVar("game_id", default=None)

#: A request id from the proxy is kept only if it looks like one (no log injection).
REQUEST_ID_SHAPE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

log = logging.getLogger("topiary.requests")

#: Asked every few seconds by health checks and Prometheus: logged at DEBUG only.
QUIET_PATHS = ("/health/", "/metrics")


class ContextFilter(logging.Filter):
    """Puts ``request_id``, ``user_id`` and ``game_id`` on every record (None if unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, variable in (("request_id", request_id), ("user_id", user_id)):
            if not hasattr(record, name):
                setattr(record, name, variable.get())
        if getattr(record, "game_id", None) is None:
            record.game_id = game_id.get()
        return True


@contextmanager
def about_game(game: int | None):
    """Log lines inside are about this game."""
    token = game_id.set(game)
    try:
        yield
    finally:
        game_id.reset(token)


class RequestIdMiddleware:
    """Takes the proxy's ``X-Request-ID`` (or makes one), logs under it, echoes it back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        rid = given if REQUEST_ID_SHAPE.match(given) else uuid.uuid4().hex
        rid_token = request_id.set(rid)
        user = getattr(request, "user", None)
        user_token = user_id.set(user.pk if user is not None and user.is_authenticated else None)
        began = time.monotonic()
        try:
            response = self.get_response(request)
            level = logging.DEBUG if request.path.startswith(QUIET_PATHS) else logging.INFO
            # The path, never the query string (it may carry a search or a token). This
            # line replaces the server's access log (off in the Procfile: it is not JSON).
            log.log(
                level,
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.monotonic() - began) * 1000, 1),
                },
            )
        finally:
            request_id.reset(rid_token)
            user_id.reset(user_token)
        response["X-Request-ID"] = rid
        return response
