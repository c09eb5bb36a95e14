"""Playing a game: every request runs through the player actions of ``games.actions``, as
the socket's and the game page's do, and a refusal is answered with its code."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from api.endpoints.games import _frame
from api.endpoints.setup import ApiError, _ok, _player, token_auth
from api.schemas import PLAY, FrameOut, MoveIn, OkOut, TakebackIn, answers
from games.actions import action_run

router = Router()


def _act(request, game_id: int, action: str, params: dict | None = None):
    """Run one of the player actions (``games.actions``, as the socket and the game page do)
    for the caller, with their refusals, logging and metrics; a refusal becomes the error."""
    user = _player(request)
    refusal = action_run(game_id, user, action, params or {})
    if refusal is not None:
        raise ApiError(refusal["code"], refusal["reason"])
    return user


@router.post(
    "/games/{game_id}/move", auth=token_auth, tags=["play"], response=answers(FrameOut, PLAY)
)
def game_move(request: HttpRequest, game_id: int, body: MoveIn):
    """Play a move (or one step of a Topiary take: ``c5:S c4`` then ``=R3``; or the whole
    ``c5:S c4=R3``) for the position at ``ply``; refusals as the socket's."""
    user = _act(request, game_id, "move", {"ply": body.ply, "move": body.move})
    return _frame(game_id, user)


@router.post(
    "/games/{game_id}/resign", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def game_resign(request: HttpRequest, game_id: int):
    """Resign (3-4 players: a house bot plays your seat on)."""
    _act(request, game_id, "resign")
    return _ok()


@router.post(
    "/games/{game_id}/abort", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def game_abort(request: HttpRequest, game_id: int):
    """Call the game off before your first move."""
    _act(request, game_id, "abort")
    return _ok()


@router.post(
    "/games/{game_id}/claim", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def game_claim(request: HttpRequest, game_id: int):
    """Claim the win from opponents gone for 60 seconds (live games)."""
    _act(request, game_id, "claim")
    return _ok()


@router.post(
    "/games/{game_id}/takeback", auth=token_auth, tags=["play"], response=answers(OkOut, PLAY)
)
def game_takeback(request: HttpRequest, game_id: int, body: TakebackIn):
    """Offer a takeback (``{"ply": n}``) or answer one (``{"accept": true|false}``)."""
    if body.accept is not None:
        _act(request, game_id, "takeback_accept" if body.accept else "takeback_decline")
    elif body.ply is not None:
        _act(request, game_id, "takeback", {"ply": body.ply})
    else:
        raise ApiError("bad_request", _("send ply (to offer) or accept (to answer)"))
    return _ok()
