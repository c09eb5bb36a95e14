"""What a player may ask of a game: one list for the socket, the HTTP fallback and the API.

Every transport runs a request through ``action_run``: the socket and the game page answer a
refusal with the same ``refused`` frame (docs/PROTOCOL.md), the public API with its code and
reason as ``{code, message}`` (docs/API.md); only how the parameters arrive differs (a socket
message, a JSON body or form, a typed API body). Writes go through ``games.services``.
"""

from __future__ import annotations

from collections.abc import Callable

from games import services
from games.models import Game
from games.services import Refused
from kit import logs, metrics


def _ply_of(params: dict) -> int | None:
    """The ply a request names: a number, or a form field's digits."""
    try:
        return int(params.get("ply"))
    except (TypeError, ValueError):
        return None


#: Each action: ``(game_id, user, params) -> None``, raising ``Refused`` to refuse.
ACTIONS: dict[str, Callable[[int, object, dict], object]] = {
    "move": lambda game_id, user, params: services.move_play(
        game_id=game_id, user=user, ply=params.get("ply"), move=params.get("move")
    ),
    "join": lambda game_id, user, params: services.table_join(game_id=game_id, user=user),
    "leave": lambda game_id, user, params: services.table_leave(game_id=game_id, user=user),
    "bots": lambda game_id, user, params: services.table_fill_with_bots(
        game_id=game_id, user=user, level=params.get("level", "")
    ),
    "resign": lambda game_id, user, params: services.game_resign(game_id=game_id, user=user),
    "abort": lambda game_id, user, params: services.game_abort(game_id=game_id, user=user),
    "claim": lambda game_id, user, params: services.game_claim(game_id=game_id, user=user),
    "flag": lambda game_id, user, params: services.clock_check(game_id=game_id),
    "takeback": lambda game_id, user, params: services.takeback_offer(
        game_id=game_id, user=user, ply=_ply_of(params)
    ),
    "takeback_accept": lambda game_id, user, params: services.takeback_answer(
        game_id=game_id, user=user, accept=True
    ),
    "takeback_decline": lambda game_id, user, params: services.takeback_answer(
        game_id=game_id, user=user, accept=False
    ),
    "rematch": lambda game_id, user, params: services.rematch_offer(game_id=game_id, user=user),
    "rematch_accept": lambda game_id, user, params: services.rematch_answer(
        game_id=game_id, user=user, accept=True
    ),
    "rematch_decline": lambda game_id, user, params: services.rematch_answer(
        game_id=game_id, user=user, accept=False
    ),
    "rematch_cancel": lambda game_id, user, params: services.rematch_cancel(
        game_id=game_id, user=user
    ),
}

#: Sitting down at a table, leaving it and calling in bots happen on the table's page
#: (forms over HTTP); a game's socket carries play.
SOCKET_ACTIONS = frozenset(ACTIONS) - {"join", "leave", "bots"}


def refused_frame(request: str | None, code: str, reason: str, ply: int | None = None) -> dict:
    """A ``refused`` frame: what was asked, why not, and the game's ply (None: no game)."""
    return {"type": "refused", "ply": ply, "request": request, "code": code, "reason": reason}


def refusal_frame(game_id: int, request: str | None, refusal: Refused) -> dict:
    """The ``refused`` frame: what was asked, why not, and the game's ply now."""
    ply = Game.objects.filter(pk=game_id).values_list("ply", flat=True).first()
    return refused_frame(request, refusal.code, refusal.reason, ply)


def action_run(game_id: int, user, request: str, params: dict) -> dict | None:
    """Run one request of ``ACTIONS``; the refusal frame if it was refused, else None.

    Its log lines carry the user and the game; its time and any refusal are counted.
    """
    user_token = logs.user_id.set(getattr(user, "pk", None))
    try:
        with logs.about_game(game_id), metrics.MOVE_ROUND_TRIP.time():
            ACTIONS[request](game_id, user, params)
    except Refused as refusal:
        metrics.REFUSALS.labels(refusal.code).inc()
        return refusal_frame(game_id, request, refusal)
    finally:
        logs.user_id.reset(user_token)
    return None
