"""Positions built by hand for the engine's tests, as JSON a record or a client could hold."""

from __future__ import annotations

from engine import wizards_garden


def emptied_basket(phase: str) -> dict:
    """A Wizards' Garden position in ``phase`` whose basket is empty (the game is over)."""
    return {
        **wizards_garden.new_game(seed=1).to_json(),
        "phase": phase,
        "basket": 0,
        "harvested": [{"W": 4, "B": 0}, {"W": 0, "B": 4}],
        "staff": 1,
        "board": [list("WBWB"), list("BWBW"), list("...."), list("WBWB")],
    }
