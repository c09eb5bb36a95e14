"""Reading a game: the caller's frame (as the socket sends it) and a finished game's export."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from api import selectors
from api.endpoints.setup import ApiError, _no_game, _reader
from api.schemas import READ, FinishedGameOut, FrameOut, answers
from games import selectors as game_selectors
from games.models import Game

router = Router()


def _frame(game_id: int, user, kind: str = "state") -> dict:
    """The caller's frame of a game: their seat's view, or the spectators' one."""
    try:
        game, seats = game_selectors.game_with_seats(game_id)
    except Game.DoesNotExist:
        raise ApiError("not_found", _no_game(game_id)) from None
    seat = game_selectors.seat_of(seats, user)
    return game_selectors.game_payload(game, seats, seat.index if seat else None, kind)


@router.get("/games/{game_id}", tags=["games"], response=answers(FrameOut, READ))
def game_state(request: HttpRequest, game_id: int):
    """One game as the caller may see it: the frame the socket sends (their seat's view
    with a reading token, else the spectators' view; the full record once finished)."""
    return _frame(game_id, _reader(request))


@router.get(
    "/games/{game_id}/export",
    tags=["games"],
    response=answers(FinishedGameOut, (401, 404, 409, 429)),
)
def game_export(request: HttpRequest, game_id: int):
    """A finished game's metadata, result and record (NOTATION.md); 409 while it runs."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ApiError("not_found", _no_game(game_id))
    if game.status != Game.Status.FINISHED:
        raise ApiError("not_finished", _("the record of a game is public once it is over"))
    return selectors.finished_game_json(game)
