"""Reads of the analysis app: what the replay page shows of a game's analysis."""

from __future__ import annotations

from django.utils.translation import gettext as _

from analysis.models import Analysis
from games.history_selectors import finished_game


def analysis_state(*, game_id: int, user) -> dict | None:
    """The analysis of a finished game as the replay page polls it; None if not finished.

    ``status`` is ``none`` until someone asks; the turns and the seats' totals come once
    it is ``done``. A finished game's record is public, and each turn was judged from the
    mover's view, so nothing here is hidden from anyone.
    """
    game = finished_game(game_id)
    if game is None:
        return None
    analysis = Analysis.objects.filter(game=game).first()
    signed_in = user is not None and user.is_authenticated
    if analysis is None:
        return {"status": "none", "done": 0, "total": 0, "can_request": signed_in}
    state = {
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "can_request": signed_in and analysis.status == Analysis.Status.FAILED,
    }
    if analysis.status == Analysis.Status.DONE:
        state["turns"] = analysis.result["turns"]
        state["players"] = analysis.result["players"]
    if analysis.status == Analysis.Status.FAILED:
        state["error"] = _("The analysis failed. Ask again to retry.")
    return state
