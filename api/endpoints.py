"""The public API (docs/API.md): thin endpoints over the apps' services and selectors.

django-ninja builds the OpenAPI document (``/api/openapi.json``) and the interactive page
(``/api/docs``) from these functions. Every game frame is ``games.selectors.game_payload``
for the caller's seat (or the spectators' view): the same builder as the socket frames.
"""

from __future__ import annotations

import datetime
import json
import logging

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.security import HttpBearer

from api import selectors, streams
from api.limits import RateLimited, rate_check
from api.models import ApiToken, Scope
from api.services import TokenError, bot_account_upgrade, token_authenticate
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game
from games.services import Refused
from puzzles import selectors as puzzle_selectors
from puzzles import services as puzzle_services
from ratings.models import RatingKind
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

NDJSON = "application/x-ndjson"
logger = logging.getLogger(__name__)

#: HTTP status of each refusal code (the codes are those of docs/PROTOCOL.md).
STATUS_OF_CODE = {
    "bad_request": 400,
    "illegal": 400,
    "unauthorized": 401,
    "not_signed_in": 401,
    "missing_scope": 403,
    "not_seated": 403,
    "not_allowed": 403,
    "forfeited": 403,
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

api = NinjaAPI(
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
    where = ".".join(str(part) for part in first.get("loc", ()))
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


def _user_named(username: str):
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise ApiError(
            "not_found", _("there is no player called %(name)s") % {"name": repr(username)}
        )
    return user


def _kind_checked(kind: str) -> str:
    if kind not in RatingKind.values:
        raise ApiError(
            "not_found",
            _("no rating kind %(kind)s: one of %(kinds)s")
            % {"kind": repr(kind), "kinds": ", ".join(RatingKind.values)},
        )
    return kind


def _line(payload) -> bytes:
    return (json.dumps(payload, separators=(",", ":")) + "\n").encode()


def _no_game(game_id: int) -> str:
    return _("there is no game %(id)s") % {"id": game_id}


def _ok() -> dict:
    return {"ok": True}


# --------------------------------------------------------------------------- schemas


class MoveIn(Schema):
    ply: int
    move: str


class TableIn(Schema):
    kind: str = "topiary"
    players: int = 2
    rated: bool = False
    clock_initial: int | None = None
    clock_increment: int | None = None
    correspondence_days: int | None = None
    options: dict | None = None


class ChallengeIn(TableIn):
    opponent: str


class TakebackIn(Schema):
    ply: int | None = None
    accept: bool | None = None


# --------------------------------------------------------------------------- account


@api.get("/account", auth=token_auth, tags=["account"])
def account(request: HttpRequest):
    """The token's account and the token's scopes."""
    caller = _caller(request)
    return {**selectors.user_json(caller.user), "scopes": caller.token.scopes}


@api.post("/bot/account/upgrade", auth=token_auth, tags=["bot"])
def bot_upgrade(request: HttpRequest):
    """Make this account a BOT account for good (needs ``bot:play``; only with no games)."""
    user = _require(request, Scope.BOT_PLAY)
    return selectors.user_json(bot_account_upgrade(user=user))


# --------------------------------------------------------------------------- users, ratings


@api.get("/users/{username}", tags=["users"])
def user_profile(request: HttpRequest, username: str):
    """A player's profile and ratings (per game and puzzles, with the provisional flag)."""
    user = _user_named(username)
    return {**selectors.user_json(user), "ratings": selectors.ratings_json(user)}


@api.get("/users/{username}/rating-history/{kind}", tags=["users"])
def user_rating_history(request: HttpRequest, username: str, kind: str):
    """Every change of one rating, oldest first."""
    return selectors.rating_history_json(_user_named(username), _kind_checked(kind))


@api.get("/leaderboards/{kind}", tags=["users"])
def leaderboard(request: HttpRequest, kind: str, bots: bool = False):
    """Established ratings of a game, best first (``bots=true``: the bots' board)."""
    return selectors.leaderboard_json(_kind_checked(kind), bots)


@api.get("/users/{username}/games", tags=["games"], response={200: None})
def user_games(
    request: HttpRequest,
    username: str,
    kind: str | None = None,
    result: str | None = None,
    rated: bool | None = None,
    opponent: str | None = None,
    limit: int = 100,
):
    """NDJSON: a player's finished and aborted games, newest first, one per line, with the
    record (filters as the history page: kind, result win/loss/draw, rated, opponent)."""
    games = selectors.games_export(
        _user_named(username), kind=kind, result=result, rated=rated, opponent=opponent
    )[: min(max(limit, 0), 1000)]
    body = b"".join(_line(selectors.finished_game_json(game)) for game in games)
    return HttpResponse(body, content_type=NDJSON)


# --------------------------------------------------------------------------- games: reading


def _frame(game_id: int, user, kind: str = "state") -> dict:
    """The caller's frame of a game: their seat's view, or the spectators' one."""
    try:
        game, seats = game_selectors.game_with_seats(game_id)
    except Game.DoesNotExist:
        raise ApiError("not_found", _no_game(game_id)) from None
    seat = game_selectors.seat_of(seats, user)
    return game_selectors.game_payload(game, seats, seat.index if seat else None, kind)


@api.get("/games/{game_id}", tags=["games"])
def game_state(request: HttpRequest, game_id: int):
    """One game as the caller may see it: the frame the socket sends (their seat's view
    with a reading token, else the spectators' view; the full record once finished)."""
    return _frame(game_id, _reader(request))


@api.get("/games/{game_id}/export", tags=["games"])
def game_export(request: HttpRequest, game_id: int):
    """A finished game's metadata, result and record (NOTATION.md); 409 while it runs."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ApiError("not_found", _no_game(game_id))
    if game.status != Game.Status.FINISHED:
        raise ApiError("not_finished", _("the record of a game is public once it is over"))
    return selectors.finished_game_json(game)


@api.get("/games/{game_id}/stream", tags=["games"], response={200: None})
def game_stream(request: HttpRequest, game_id: int):
    """NDJSON: the caller's frame now, then one frame per ply in order as it is played (and
    one per other change), a blank line every 10 s, ending once the game is over and
    scored. A player (token with a reading scope) gets their seat's view with
    ``legal_steps``; anyone else the spectators' view."""
    if not Game.objects.filter(pk=game_id).exists():
        raise ApiError("not_found", _no_game(game_id))
    caller = _caller(request)
    token_id = caller.token.pk if caller.token else None
    return StreamingHttpResponse(
        streams.game_lines(game_id, _reader(request), token_id, translation.get_language()),
        content_type=NDJSON,
    )


@api.get("/stream/event", auth=token_auth, tags=["play"], response={200: None})
def event_stream(request: HttpRequest):
    """NDJSON: this account's events (``challenge``, ``challengeDeclined``,
    ``challengeCanceled``, ``gameStart``, ``gameFinish``), a blank line every 10 s; games
    already running and challenges waiting are announced at once. Needs a token with a
    reading scope."""
    user = _reader(request)
    if user is None:
        raise ApiError("missing_scope", _("the event stream needs read, play or bot:play"))
    lines = streams.event_lines(user, _caller(request).token.pk, translation.get_language())
    return StreamingHttpResponse(lines, content_type=NDJSON)


# --------------------------------------------------------------------------- games: playing


@api.post("/games/{game_id}/move", auth=token_auth, tags=["play"])
def game_move(request: HttpRequest, game_id: int, body: MoveIn):
    """Play a move (or one step of a Topiary take: ``c5:S c4`` then ``=R3``; or the whole
    ``c5:S c4=R3``) for the position at ``ply``; refusals as the socket's."""
    user = _player(request)
    game_services.move_play(game_id=game_id, user=user, ply=body.ply, move=body.move)
    return _frame(game_id, user)


@api.post("/games/{game_id}/resign", auth=token_auth, tags=["play"])
def game_resign(request: HttpRequest, game_id: int):
    game_services.game_resign(game_id=game_id, user=_player(request))
    return _ok()


@api.post("/games/{game_id}/abort", auth=token_auth, tags=["play"])
def game_abort(request: HttpRequest, game_id: int):
    game_services.game_abort(game_id=game_id, user=_player(request))
    return _ok()


@api.post("/games/{game_id}/claim", auth=token_auth, tags=["play"])
def game_claim(request: HttpRequest, game_id: int):
    """Claim the win from opponents gone for 60 seconds (live games)."""
    game_services.game_claim(game_id=game_id, user=_player(request))
    return _ok()


@api.post("/games/{game_id}/takeback", auth=token_auth, tags=["play"])
def game_takeback(request: HttpRequest, game_id: int, body: TakebackIn):
    """Offer a takeback (``{"ply": n}``) or answer one (``{"accept": true|false}``)."""
    user = _player(request)
    if body.accept is not None:
        game_services.takeback_answer(game_id=game_id, user=user, accept=body.accept)
    elif body.ply is not None:
        game_services.takeback_offer(game_id=game_id, user=user, ply=body.ply)
    else:
        raise ApiError("bad_request", _("send ply (to offer) or accept (to answer)"))
    return _ok()


def _table_fields(body: TableIn) -> dict:
    return {
        "kind": body.kind,
        "options": body.options,
        "rated": body.rated,
        "clock_initial": body.clock_initial,
        "clock_increment": body.clock_increment,
        "correspondence_days": body.correspondence_days,
    }


@api.post("/tables", auth=token_auth, tags=["play"])
def table_create(request: HttpRequest, body: TableIn):
    """Open a table (a seek) with you in seat 0; it starts when every seat is taken."""
    game = game_services.table_create(
        user=_player(request), players=body.players, **_table_fields(body)
    )
    return {"id": game.pk}


@api.post("/tables/{game_id}/join", auth=token_auth, tags=["play"])
def table_join(request: HttpRequest, game_id: int):
    game = game_services.table_join(game_id=game_id, user=_player(request))
    return {"id": game.pk, "status": game.status}


@api.post("/challenges", auth=token_auth, tags=["play"])
def challenge_create(request: HttpRequest, body: ChallengeIn):
    """Challenge a player by name (2 players); a house bot accepts a BOT account's challenge
    after ``HOUSE_BOT_ANSWER_DELAY`` seconds (a person's at once)."""
    game = game_services.challenge_create(
        user=_player(request), opponent_username=body.opponent, **_table_fields(body)
    )
    return {"id": game.pk, "status": game.status}


@api.post("/challenges/{game_id}/accept", auth=token_auth, tags=["play"])
def challenge_accept(request: HttpRequest, game_id: int):
    game = game_services.table_join(game_id=game_id, user=_player(request))
    return {"id": game.pk, "status": game.status}


@api.post("/challenges/{game_id}/decline", auth=token_auth, tags=["play"])
def challenge_decline(request: HttpRequest, game_id: int):
    """Decline a challenge to you, or cancel your own (the table is removed)."""
    game_services.table_leave(game_id=game_id, user=_player(request))
    return _ok()


# --------------------------------------------------------------------------- puzzles


def _puzzle_json(puzzle, user) -> dict:
    attempts = puzzle_selectors.attempts_of(puzzle=puzzle, user=user) if user else []
    revealed = puzzle_selectors.line_revealed(attempts)
    start = puzzle_selectors.puzzle_progress(puzzle, {"seat": puzzle.seat, "moves": []})
    return {
        "date": puzzle.date.isoformat(),
        "seat": puzzle.seat,
        "k": puzzle.k,
        "optimum": puzzle.optimum,
        "rating": round(puzzle.rating, 1),
        "position": start.position,
        "legal_moves": start.legal_moves,
        "solved": any(attempt.solved for attempt in attempts),
        "line": puzzle.line if revealed else None,
    }


@api.get("/puzzles/daily", tags=["puzzles"])
def puzzle_daily(request: HttpRequest):
    """Today's puzzle; ``line`` (the answer) only once the caller solved it or gave up."""
    puzzle = puzzle_services.daily_puzzle_get_or_create(date=timezone.localdate())
    return _puzzle_json(puzzle, _reader(request))


@api.get("/puzzles/{date}", tags=["puzzles"])
def puzzle_of_date(request: HttpRequest, date: datetime.date):
    """The puzzle of an archive date (none in the future)."""
    return _puzzle_json(_puzzle_playable(date), _reader(request))


class PuzzleSubmissionIn(Schema):
    seat: int
    moves: list[str]


def _puzzle_playable(date: datetime.date):
    if not puzzle_selectors.puzzle_date_playable(date, today=timezone.localdate()):
        raise ApiError("not_found", _("no puzzle for %(date)s") % {"date": date.isoformat()})
    return puzzle_services.daily_puzzle_get_or_create(date=date)


def _verdict_json(verdict) -> dict:
    return {
        "score": verdict.score,
        "optimum": verdict.optimum,
        "solved": verdict.solved,
        "line": verdict.line,
        "rated": verdict.rated,
        "rating_before": verdict.rating_before,
        "rating_after": verdict.rating_after,
    }


@api.post("/puzzles/{date}/submit", auth=token_auth, tags=["puzzles"])
def puzzle_submit(request: HttpRequest, date: datetime.date, body: PuzzleSubmissionIn):
    """Submit a complete line (``{"seat", "moves"}``, K moves) for a puzzle (``puzzle:write``);
    the first attempt at a puzzle is rated, as on the page."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        verdict = puzzle_services.puzzle_attempt_submit(
            puzzle=_puzzle_playable(date), user=user, submission=body.model_dump()
        )
    except puzzle_services.SubmissionRefused as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    return _verdict_json(verdict)


@api.post("/puzzles/{date}/give-up", auth=token_auth, tags=["puzzles"])
def puzzle_give_up(request: HttpRequest, date: datetime.date):
    """Give up and get one optimal line (``puzzle:write``); a first attempt counts as lost."""
    user = _require(request, Scope.PUZZLE_WRITE)
    return _verdict_json(puzzle_services.puzzle_give_up(puzzle=_puzzle_playable(date), user=user))


# --------------------------------------------------------------------------- tournaments


def _tournament_json(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "format": tournament.format,
        "status": tournament.status,
        "rated": tournament.rated,
        "bots_allowed": tournament.bots_allowed,
        "table_size": tournament.table_size,
        "clock_initial": tournament.clock_initial,
        "clock_increment": tournament.clock_increment,
        "starts_at": tournament.starts_at.isoformat(),
        "max_players": tournament.max_players,
        "created_by": tournament.created_by.username if tournament.created_by else None,
    }


@api.get("/tournaments", tags=["tournaments"])
def tournaments(request: HttpRequest):
    """Upcoming, running and recently finished tournaments."""
    listing = tournament_selectors.tournaments_listing()
    return {name: [_tournament_json(t) for t in items] for name, items in listing.items()}


@api.get("/tournaments/{tournament_id}", tags=["tournaments"])
def tournament(request: HttpRequest, tournament_id: int):
    """One tournament with its standings and its rounds' pairings and games."""
    found = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if found is None:
        raise ApiError("not_found", _("there is no tournament %(id)s") % {"id": tournament_id})
    standings = [
        {
            "rank": row.rank,
            "username": row.entry.user.username,
            "score": row.score,
            "tiebreaks": list(row.tiebreaks),
            "games": row.games,
        }
        for row in tournament_selectors.tournament_standings(found)
    ]
    rounds = [
        {
            "number": item["number"],
            "pairings": [
                {
                    "board": pairing.board,
                    "game": pairing.game_id,
                    "bye": pairing.is_bye,
                    "players": [
                        {"username": p.entry.user.username, "seat": p.seat, "points": p.points}
                        for p in sorted(pairing.players.all(), key=lambda p: p.seat)
                    ],
                }
                for pairing in item["pairings"]
            ],
        }
        for item in tournament_selectors.tournament_rounds(found)
    ]
    return {
        **_tournament_json(found),
        "tiebreaks": list(tournament_selectors.tiebreak_names(found)),
        "standings": standings,
        "rounds": rounds,
    }


@api.post("/tournaments/{tournament_id}/join", auth=token_auth, tags=["tournaments"])
def tournament_join(request: HttpRequest, tournament_id: int):
    """Enter an upcoming tournament (``tournament:write``), as the page's Join button."""
    user = _require(request, Scope.TOURNAMENT_WRITE)
    tournament_services.tournament_join(tournament_id=tournament_id, user=user)
    return _ok()


@api.post("/tournaments/{tournament_id}/withdraw", auth=token_auth, tags=["tournaments"])
def tournament_withdraw(request: HttpRequest, tournament_id: int):
    """Leave a tournament (``tournament:write``)."""
    user = _require(request, Scope.TOURNAMENT_WRITE)
    tournament_services.tournament_withdraw(tournament_id=tournament_id, user=user)
    return _ok()
