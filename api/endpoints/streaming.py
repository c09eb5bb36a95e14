"""The two NDJSON streams' endpoints: a game's frames, and an account's events
(``api.streams`` writes their lines)."""

from __future__ import annotations

from django.http import HttpRequest, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Router

from api import streams
from api.endpoints.setup import NDJSON, ApiError, _caller, _no_game, _reader, token_auth
from api.schemas import READ, answers
from games.models import Game

router = Router()


@router.get(
    "/games/{game_id}/stream",
    tags=["games"],
    response=answers(None, READ),
    # One frame per line: declared here, as ninja knows only JSON answers.
    openapi_extra={
        "responses": {
            200: {
                "description": "NDJSON: one frame per line (a blank line is a keep-alive; "
                "an object of type error ends the stream)",
                "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/FrameOut"}}},
            }
        }
    },
)
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


@router.get(
    "/stream/event",
    auth=token_auth,
    tags=["play"],
    response=answers(None, (401, 403, 429)),
    openapi_extra={
        "responses": {
            200: {
                "description": "NDJSON: one event per line, an object with its type "
                "(challenge, challengeDeclined, challengeCanceled, gameStart, gameFinish, "
                "error); a blank line is a keep-alive",
                "content": {NDJSON: {"schema": {"type": "object"}}},
            }
        }
    },
)
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
