"""Structured logs: who and what each log line is about, for the JSON formatter.

``python-json-logger`` writes the lines (settings ``LOGGING``); this module only
keeps the request id, the user id and the game id of the work in hand in context
variables, which follow a request or task across ``sync_to_async`` threads, and
copies them onto every record. Never log a state, a view or a move's tiles: only ids
and plies (hidden information must not reach the logs).

Every line also passes ``ScrubFilter`` (on every handler), which masks secrets whoever
logged them (our code, Django's ``django.request``/``django.security``, uvicorn,
Celery): the secret parameters of the site's own routes (a password-reset or
address-confirmation link becomes its route, ``/account/email/confirm/<token>/``),
e-mail addresses, ``Bearer``/``Basic`` credentials and ``sessionid=``, ``token=``...
values, and the browsers' Web Push endpoints. Error reports run the same ``scrub_text``
(``kit.errors``).
"""

from __future__ import annotations

import logging
import re
import threading
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


#: URL parameters that are secrets (a reset link's user and token, a confirmation
#: link's token): any route naming one is logged as its route, never its values.
SECRET_URL_PARAMETERS = frozenset({"token", "uidb64"})
SCRUBBED = "[scrubbed]"

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_CREDENTIAL = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
_SECRET_FIELD = re.compile(
    r"(?i)\b(sessionid|csrftoken|csrfmiddlewaretoken|token|access_token|secret|password|key)"
    r"=[^&\s;'\",]+"
)
#: One path segment as it may appear in text: up to a slash, a quote, a space or a query.
_SEGMENT = r"[^/\s'\"?#&<>]+"
_ROUTE_PARAMETER = re.compile(r"<(?:[^>:]+:)?([^>]+)>")
#: A Web Push endpoint is a secret (whoever has it can push to that browser): the paths of
#: the browsers' push services (Chrome's FCM, Firefox's autopush, Edge's WNS, Safari's).
_PUSH_ENDPOINT = re.compile(
    r"(?i)(fcm\.googleapis\.com/(?:fcm/send|wp)|push\.services\.mozilla\.com/wpush/v\d"
    r"|\.notify\.windows\.com/w|web\.push\.apple\.com)/[^\s'\"<>]+"
)


def _route_fragments(pattern) -> list[tuple[str, str | None]]:
    """One URL pattern as (regex, mask) pieces: mask is None for text kept as it is."""
    from django.urls.resolvers import RoutePattern

    if isinstance(pattern, RoutePattern):
        route, pieces, start = str(pattern), [], 0
        for match in _ROUTE_PARAMETER.finditer(route):
            pieces.append((re.escape(route[start : match.start()]), None))
            name = match[1]
            pieces.append((_SEGMENT, f"<{name}>" if name in SECRET_URL_PARAMETERS else None))
            start = match.end()
        pieces.append((re.escape(route[start:]), None))
        return pieces
    regex = pattern.regex
    text = re.sub(r"^\^|(?:\$|\\Z)$", "", regex.pattern)
    text = re.sub(r"\(\?P<\w+>", "(?:", text)
    secret = sorted(set(regex.groupindex) & SECRET_URL_PARAMETERS)
    return [(text, f"<{secret[0]}>" if secret else None)]


def _secret_routes_find() -> list[tuple[re.Pattern, list[str | None]]]:
    """Every route of the URLconf with a secret parameter, as a regex finding it in text."""
    from django.urls import URLResolver, get_resolver

    found = []

    def walk(entries, above):
        for entry in entries:
            pieces = above + _route_fragments(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, pieces)
            elif any(mask for _regex, mask in pieces):
                pieces = [piece for piece in pieces if piece[0]]
                regex, mask = pieces[-1]
                if mask is None and regex.endswith("/"):
                    # A link missing its last slash (before the redirect adding it).
                    pieces[-1] = (regex + "?", None)
                found.append(
                    (
                        re.compile("".join(f"(?P<p{i}>{r})" for i, (r, _m) in enumerate(pieces))),
                        [mask for _regex, mask in pieces],
                    )
                )

    walk(get_resolver().url_patterns, [])
    return found


_secret_routes: list | None = None
_finding = threading.local()


def _routes() -> list:
    """The secret routes, found once the apps are loaded (before that, none are known)."""
    global _secret_routes
    if _secret_routes is not None:
        return _secret_routes
    from django.apps import apps

    # Importing the URLconf may log: those lines are scrubbed without the routes.
    if not apps.ready or getattr(_finding, "busy", False):
        return []
    _finding.busy = True
    try:
        _secret_routes = _secret_routes_find()
    except Exception:  # a URLconf that cannot load must not stop a log line
        return []
    finally:
        _finding.busy = False
    return _secret_routes


def _route_masked(masks: list[str | None]):
    def mask(match: re.Match) -> str:
        return "".join(m or match[f"p{i}"] for i, m in enumerate(masks))

    return mask


def scrub_text(text: str) -> str:
    """``text`` with secret route parameters, addresses and credentials masked."""
    # Routes, addresses and fields need a character many lines lack: those skip them.
    if "/" in text:
        for regex, masks in _routes():
            text = regex.sub(_route_masked(masks), text)
    if "@" in text or "%40" in text:
        text = _EMAIL.sub("[email]", text)
    if "push" in text or "fcm" in text or "notify" in text:
        text = _PUSH_ENDPOINT.sub(rf"\1/{SCRUBBED}", text)
    text = _CREDENTIAL.sub(rf"\1 {SCRUBBED}", text)
    if "=" in text:
        text = _SECRET_FIELD.sub(rf"\1={SCRUBBED}", text)
    return text


def scrub_data(value):
    """``value`` (strings, lists, tuples, dicts of them) with every string scrubbed."""
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {key: scrub_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_data(item) for item in value)
    return value


#: A record's own attributes: anything else on it came from ``extra=``.
_RECORD_FIELDS = frozenset(
    set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}
)


class ScrubFilter(logging.Filter):
    """Masks secrets in a record's message, traceback and extra fields (see ``scrub_text``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # the formatter reports the bad arguments; keep the bare text
            message = str(record.msg)
        record.msg, record.args = scrub_text(message), ()
        if record.exc_info:
            # Tracebacks carry exception messages: a path, an address.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = scrub_text(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub_text(record.stack_info)
        for name, value in list(vars(record).items()):
            if name in _RECORD_FIELDS or value is None or isinstance(value, bool | int | float):
                continue
            if not isinstance(value, str | list | tuple | dict):
                # An object (django.request's ``request``) is written as its text.
                value = str(value)
            setattr(record, name, scrub_data(value))
        return True


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
            # The path, never the query string (it may carry a search or a token); a
            # route's secret parameters are masked by ScrubFilter. This line replaces the
            # server's access log (off in the Procfile: it is not JSON).
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
