"""Wizards' Garden's analyst: nothing is hidden, so the value of each legal move is the
strong bot's alpha-beta value (flower lead, half a flower for the staff) at
``GARDEN_DEPTH`` plies; a forced win or loss counts as ``GARDEN_WIN`` flowers.

``engine.analysis`` turns the values into the turn's verdict (``GAME.analyst``).
"""

from __future__ import annotations

import math

from engine.rng import Rng
from engine.wizards_garden.bots import new_search
from engine.wizards_garden.rules import View, move_name, state_from_view

#: Plies searched after each legal move.
GARDEN_DEPTH = 4
#: A forced win (or loss) counts as this many flowers ahead (or behind).
GARDEN_WIN = 10.0


def values(view: View, played: str, rng: Rng) -> dict[str, list[float]]:
    """Per legal move from ``view``: its alpha-beta value, the one sample there is."""
    state = state_from_view(view)
    found = {}
    for code in state.move_codes():
        search = new_search(math.inf, None)
        value = search.child_value(state, code, GARDEN_DEPTH, -math.inf, math.inf)
        found[move_name(code)] = [max(-GARDEN_WIN, min(GARDEN_WIN, value))]
    return found
