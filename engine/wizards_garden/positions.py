"""Wizards' Garden positions written as their rows (``engine.positions``): the seeds
neither on the board nor harvested are in the basket."""

from __future__ import annotations

from engine.wizards_garden.rules import NAME, SEEDS


def wizards_garden_position(
    *rows: str,
    harvested: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
    staff: int | None = None,
    to_move: int = 0,
    phase: str = "play",
    basket: int | None = None,
    options: dict | None = None,
) -> dict:
    """Wizards' Garden position JSON from four rows of ``W``, ``B`` and ``.``, rank 4 first."""
    on_board = sum(cell != "." for row in rows for cell in row)
    flowers = sum(w + b for w, b in harvested)
    data = {
        "game": NAME,
        "board": [list(row) for row in rows],
        "basket": SEEDS - on_board - flowers if basket is None else basket,
        "harvested": [{"W": w, "B": b} for w, b in harvested],
        "staff": staff,
        "to_move": to_move,
        "phase": phase,
    }
    if options is not None:
        data["options"] = options
    return data
