"""Tables and challenges: open, read, join, leave, call in house bots; challenge, accept,
decline. Each answers the game's id and status (a table, a challenge and its game are one),
and the table's creator its invite link while it waits."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router

from api import selectors
from api.endpoints.play import _act
from api.endpoints.setup import ApiError, _no_game, _ok, _player, token_auth
from api.schemas import (
    PLAY,
    BotsIn,
    ChallengeIn,
    OkOut,
    OpenedTableOut,
    TableIn,
    TableOut,
    answers,
)
from games import services as game_services
from games.models import Game

router = Router()


def _table(game_id: int) -> dict:
    """What a table request answers: the game's id and its status now."""
    return {"id": game_id, "status": selectors.table_status(game_id)}


def _invite_url(request: HttpRequest, game: Game, user) -> str | None:
    """The table's invite link for its creator while it waits (``invite_token``), else None."""
    token = game_services.invite_token(game, user)
    return request.build_absolute_uri(reverse("games:invite", args=[token])) if token else None


def _table_fields(body: TableIn) -> dict:
    return {
        "kind": body.kind,
        "options": body.options,
        "rated": body.rated,
        "clock_initial": body.clock_initial,
        "clock_increment": body.clock_increment,
        "correspondence_days": body.correspondence_days,
    }


@router.post("/tables", auth=token_auth, tags=["play"], response=answers(OpenedTableOut, PLAY))
def table_create(request: HttpRequest, body: TableIn):
    """Open a table (a seek) with you in seat 0; it starts when every seat is taken."""
    user = _player(request)
    game = game_services.table_create(user=user, players=body.players, **_table_fields(body))
    return {"id": game.pk, "status": game.status, "invite_url": _invite_url(request, game, user)}


@router.get(
    "/tables/{game_id}", auth=token_auth, tags=["play"], response=answers(OpenedTableOut, PLAY)
)
def table_read(request: HttpRequest, game_id: int):
    """A table's status, and to its creator its invite link while it waits for players."""
    user = _player(request)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ApiError("not_found", _no_game(game_id))
    return {"id": game.pk, "status": game.status, "invite_url": _invite_url(request, game, user)}


@router.post(
    "/tables/{game_id}/join", auth=token_auth, tags=["play"], response=answers(TableOut, PLAY)
)
def table_join(request: HttpRequest, game_id: int):
    """Take the first free seat at an open table; the game starts when the last seat is taken."""
    _act(request, game_id, "join")
    return _table(game_id)


@router.post(
    "/tables/{game_id}/leave", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def table_leave(request: HttpRequest, game_id: int):
    """Leave an open table before it starts (a table nobody sits at any more is removed)."""
    _act(request, game_id, "leave")
    return _ok()


@router.post(
    "/tables/{game_id}/bots", auth=token_auth, tags=["play"], response=answers(TableOut, PLAY)
)
def table_bots(request: HttpRequest, game_id: int, body: BotsIn):
    """Seat house bots of ``level`` (random, greedy, strong) in every free seat of an open
    table you sit at, which starts it."""
    _act(request, game_id, "bots", {"level": body.level})
    return _table(game_id)


@router.post("/challenges", auth=token_auth, tags=["play"], response=answers(TableOut, PLAY))
def challenge_create(request: HttpRequest, body: ChallengeIn):
    """Challenge a player by name (2 players); a house bot accepts a BOT account's challenge
    after ``HOUSE_BOT_ANSWER_DELAY`` seconds (a person's at once)."""
    game = game_services.challenge_create(
        user=_player(request), opponent_username=body.opponent, **_table_fields(body)
    )
    return {"id": game.pk, "status": game.status}


@router.post(
    "/challenges/{game_id}/accept", auth=token_auth, tags=["play"], response=answers(TableOut, PLAY)
)
def challenge_accept(request: HttpRequest, game_id: int):
    """Accept a challenge to you: the game starts."""
    _act(request, game_id, "join")
    return _table(game_id)


@router.post(
    "/challenges/{game_id}/decline", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def challenge_decline(request: HttpRequest, game_id: int):
    """Decline a challenge to you, or cancel your own (the table is removed)."""
    _act(request, game_id, "leave")
    return _ok()
