"""The API's set-up: the NinjaAPI, who a request is (tokens, scopes, rate limits), and
how every error is answered (``{code, message}`` with its HTTP status)."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.security import HttpBearer

from api.limits import RateLimited, rate_check
from api.models import ApiToken, Scope
from api.services import TokenError, token_authenticate
from games.services import Refused

NDJSON = "application/x-ndjson"
# Named as before the split, so log filters and alerts on it still match.
logger = logging.getLogger("api.endpoints")

#: HTTP status of each refusal code (the codes are those of docs/PROTOCOL.md); any other
#: code is a conflict with the game's or the table's state, 409 (``not_allowed`` among them:
#: a takeback or a tournament entry refused as things stand).
STATUS_OF_CODE = {
    "bad_request": 400,
    "illegal": 400,
    "unauthorized": 401,
    "not_signed_in": 401,
    "missing_scope": 403,
    "not_seated": 403,
    "forfeited": 403,
    "blocked": 403,
    "not_found": 404,
    "rate_limited": 429,
}


#: Messages are for people, in the request's language (Accept-Language); codes are for
#: programs and stay as they are.
NEEDS_TOKEN = gettext_lazy("this endpoint needs a token: Bearer <secret>")


class ApiError(Exception):
    def __init__(self, code: str, message, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or STATUS_OF_CODE.get(code, 409)


class Caller:
    """Who makes a request: a token's user, or nobody (``user`` None)."""

    def __init__(self, token: ApiToken | None = None):
        self.token = token
        self.user = token.user if token else None

    def __bool__(self) -> bool:
        return True


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <secret>``; a wrong or revoked secret is refused, never ignored."""

    def authenticate(self, request, token):
        found = token_authenticate(token)
        if found is None:
            raise ApiError("unauthorized", _("this token is unknown or has been revoked"), 401)
        rate_check(token_id=found.pk, address=_address(request))
        return Caller(found)


def anonymous(request):
    """No token at all: a public read, limited per address."""
    rate_check(token_id=None, address=_address(request))
    return Caller()


def _address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


token_auth = TokenAuth()
PUBLIC = [token_auth, anonymous]


class _Api(NinjaAPI):
    """The NinjaAPI keeping the operation ids clients were generated with (``api_endpoints_``
    and the function's name) whichever module of this package an endpoint lives in."""

    def get_openapi_operation_id(self, operation) -> str:
        return f"api_endpoints_{operation.view_func.__name__}"


api = _Api(
    title="Topiary Online API",
    version="1.0",
    description=(
        "Read games, players, leaderboards, puzzles and tournaments, and play (as a person "
        "or as a BOT account) over HTTP. Guide: docs/API.md. Errors are "
        '`{"code": ..., "message": ...}`.'
    ),
    auth=PUBLIC,
    urls_namespace="api",
)


def _error(request, code: str, message, status: int) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": str(message)}, status=status)


@api.exception_handler(ApiError)
def _api_error(request, error: ApiError):
    return _error(request, error.code, error.message, error.status)


@api.exception_handler(Refused)
def _refused(request, error: Refused):
    return _error(request, error.code, error.reason, STATUS_OF_CODE.get(error.code, 409))


@api.exception_handler(TokenError)
def _token_error(request, error: TokenError):
    return _error(request, error.code, error.message, STATUS_OF_CODE.get(error.code, 409))


@api.exception_handler(RateLimited)
def _rate_limited(request, error: RateLimited):
    if error.what == "token":
        message = _("too many requests from this token: retry in %(seconds)s s")
    else:
        message = _("too many requests from this address: retry in %(seconds)s s")
    response = _error(request, "rate_limited", message % {"seconds": error.retry_after}, 429)
    response["Retry-After"] = str(error.retry_after)
    return response


@api.exception_handler(AuthenticationError)
def _unauthorized(request, error):
    return _error(request, "unauthorized", NEEDS_TOKEN, 401)


@api.exception_handler(NinjaValidationError)
def _invalid(request, error: NinjaValidationError):
    first = error.errors[0] if error.errors else {}
    # A body's field is named as the caller sent it (``ply``), not as ninja nests it
    # (``body.body.ply``); a path or query parameter keeps its place (``query.limit``).
    loc = [str(part) for part in first.get("loc", ())]
    while len(loc) > 1 and loc[0] == "body":
        loc.pop(0)
    where = ".".join(loc)
    # Pydantic's own words say what is wrong with a field (in English).
    problem = first.get("msg") or _("invalid request")
    return _error(request, "bad_request", f"{where}: {problem}", 400)


#: Codes for the errors django-ninja raises itself (a body that is not JSON, say).
CODE_OF_STATUS = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found"}


@api.exception_handler(HttpError)
def _http_error(request, error: HttpError):
    code = CODE_OF_STATUS.get(error.status_code, "error")
    return _error(request, code, str(error.message), error.status_code)


@api.exception_handler(Exception)
def _server_error(request, error: Exception):
    # Logged with its traceback for us; the caller gets a sentence, never the trace.
    logger.exception("API error on %s", request.path)
    return _error(request, "server_error", _("something went wrong on our side"), 500)


@api.exception_handler(DjangoValidationError)
def _not_allowed(request, error: DjangoValidationError):
    # The tournaments' services refuse with a sentence (full, started, not entered...).
    return _error(request, "not_allowed", " ".join(error.messages), 409)


@api.exception_handler(Http404)
def _not_found(request, error):
    return _error(request, "not_found", str(error) or _("not found"), 404)


# --------------------------------------------------------------------------- helpers


def _caller(request) -> Caller:
    return request.auth


def _reader(request):
    """The user whose private views a request may read (a token with any reading scope)."""
    caller = _caller(request)
    if caller.token is None:
        return None
    if {Scope.READ, Scope.PLAY, Scope.BOT_PLAY} & set(caller.token.scopes):
        return caller.user
    return None


def _require(request, scope: str):
    caller = _caller(request)
    if caller.token is None:
        raise ApiError("unauthorized", NEEDS_TOKEN, 401)
    if not caller.token.allows(scope):
        raise ApiError(
            "missing_scope", _("this token lacks the %(scope)s scope") % {"scope": repr(str(scope))}
        )
    return caller.user


def _player(request):
    """The user a playing request acts for: BOT accounts need ``bot:play``, people ``play``."""
    caller = _caller(request)
    if caller.token is None:
        raise ApiError("unauthorized", _("playing needs a token: Bearer <secret>"), 401)
    return _require(request, Scope.BOT_PLAY if caller.user.is_bot else Scope.PLAY)


def _no_game(game_id: int) -> str:
    return _("there is no game %(id)s") % {"id": game_id}


def _ok() -> dict:
    return {"ok": True}
