"""The two NDJSON streams: a game's frames, and an account's events."""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import Router

from api import selectors
from api.endpoints.games import _frame
from api.endpoints.setup import NDJSON, ApiError, _caller, _line, _no_game, _reader, token_auth
from api.models import ApiToken
from games import services as game_services
from games.models import Game

router = Router()

#: Seconds between two looks at the database by a stream, and between keep-alive lines.
STREAM_POLL_S = 0.3
KEEPALIVE_S = 10.0
#: How often a player's open game stream counts as a sign of life at the table.
SEEN_EVERY_S = 10.0


TOKEN_REVOKED = gettext_lazy("token revoked")
GAME_GONE = gettext_lazy("the game is gone")


def _stream_error(code: str, message, language: str) -> bytes:
    """A stream's last line: its lines are written after the view has returned, so in the
    language the request asked for, kept at the start."""
    with translation.override(language):
        return _line({"type": "error", "code": code, "message": str(message)})


def _released(read):
    """``read`` made awaitable for a stream, handing its database connection back to the pool
    after each call: a stream open for hours must not hold one of the few pooled connections.
    (Inside a test's transaction the connection is kept: closing it would end the test's.)"""

    def run(*args, **kwargs):
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return sync_to_async(run)


def _token_live(token_id: int | None) -> bool:
    return token_id is None or ApiToken.objects.live().filter(pk=token_id).exists()


async def _game_lines(game_id: int, user, token_id: int | None, language: str):
    """NDJSON lines of one game for one viewer: a frame whenever the game changes, a blank
    keep-alive line when nothing does, an end once the game is over and scored."""
    poll = _released(selectors.game_fingerprint)
    frame_of = _released(_frame)
    live = _released(_token_live)
    seen = _released(game_services.seat_seen)
    last, last_ply, quiet, since_seen = None, None, 0.0, SEEN_EVERY_S
    while True:
        if not await live(token_id):
            yield _stream_error("unauthorized", TOKEN_REVOKED, language)
            return
        fingerprint = await poll(game_id)
        if fingerprint is None:
            yield _stream_error("not_found", GAME_GONE, language)
            return
        if user is not None and since_seen >= SEEN_EVERY_S:
            await seen(game_id=game_id, user=user)
            since_seen = 0.0
        if fingerprint != last:
            moved = last_ply is not None and fingerprint[1] > last_ply
            frame = await frame_of(game_id, user, "move" if moved else "state")
            last, last_ply, quiet = fingerprint, frame["ply"], 0.0
            yield _line(frame)
            status, scored = fingerprint[0], fingerprint[4]
            if status == Game.Status.ABORTED or (status == Game.Status.FINISHED and scored):
                return
        elif quiet >= KEEPALIVE_S:
            quiet = 0.0
            yield b"\n"
        await asyncio.sleep(STREAM_POLL_S)
        quiet += STREAM_POLL_S
        since_seen += STREAM_POLL_S


@router.get("/games/{game_id}/stream", tags=["games"], response={200: None})
def game_stream(request: HttpRequest, game_id: int):
    """NDJSON: the caller's frame now, then one line per change, ending once the game is
    over and scored. A player (token with a reading scope) gets their seat's view with
    ``legal_steps``; anyone else the spectators' view."""
    if not Game.objects.filter(pk=game_id).exists():
        raise ApiError("not_found", _no_game(game_id))
    caller = _caller(request)
    token_id = caller.token.pk if caller.token else None
    return StreamingHttpResponse(
        _game_lines(game_id, _reader(request), token_id, translation.get_language()),
        content_type=NDJSON,
    )


async def _event_lines(user, token_id: int, language: str):
    """NDJSON lines of an account's events: challenges arriving, games starting and ending."""
    events_of = _released(selectors.account_events)
    ended = _released(selectors.game_ended)
    live = _released(_token_live)
    challenged: set[int] = set()
    playing: list[int] = []
    quiet = 0.0
    yield b"\n"
    while True:
        if not await live(token_id):
            yield _stream_error("unauthorized", TOKEN_REVOKED, language)
            return
        events = await events_of(user)
        lines = []
        for game in events["challenges"]:
            if game.pk not in challenged:
                challenged.add(game.pk)
                lines.append({"type": "challenge", "challenge": selectors.challenge_json(game)})
        for game_id in events["playing"]:
            if game_id not in playing:
                playing.append(game_id)
                lines.append({"type": "gameStart", "game": {"id": game_id}})
        for game_id in list(playing):
            if game_id not in events["playing"]:
                finish = await ended(game_id)
                if finish is not None:
                    playing.remove(game_id)
                    lines.append({"type": "gameFinish", "game": finish})
        for line in lines:
            yield _line(line)
        quiet = 0.0 if lines else quiet + STREAM_POLL_S
        if quiet >= KEEPALIVE_S:
            quiet = 0.0
            yield b"\n"
        await asyncio.sleep(STREAM_POLL_S * 2)


@router.get("/stream/event", auth=token_auth, tags=["play"], response={200: None})
def event_stream(request: HttpRequest):
    """NDJSON: this account's events (``challenge``, ``gameStart``, ``gameFinish``); games
    already running are announced at once. Needs a token with a reading scope."""
    user = _reader(request)
    if user is None:
        raise ApiError("missing_scope", _("the event stream needs read, play or bot:play"))
    lines = _event_lines(user, _caller(request).token.pk, translation.get_language())
    return StreamingHttpResponse(lines, content_type=NDJSON)
