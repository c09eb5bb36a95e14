"""Positions for the rules pages and the lessons, written as the cells that matter.

A Topiary picture or lesson names a few cells; every other cell is dealt face down from
the tiles left over, in a fixed order, so a position is the same every time it is built.
The result is NOTATION.md's position JSON, which the engine then reads and judges: nothing
here knows a rule beyond the shape of a deal.
"""

from __future__ import annotations

from engine import topiary

FILES = "abcde"


def topiary_position(
    garden: dict[str, str],
    *,
    players: int = 2,
    visitors: dict[str, int] | None = None,
    hands: list[list[str]] | None = None,
    removed_type: str | None = "E",
    unplaced: list[int] | None = None,
    to_move: int = 0,
    options: dict | None = None,
) -> dict:
    """Topiary position JSON: ``garden`` maps cells to ``R3`` (face up) or ``r3`` (face down).

    Cells left out get the unused tiles face down (the centre face up, as the deal leaves
    it); hands default to unused tiles; ``unplaced`` defaults to a full quota less the
    visitors placed.
    """
    visitors = visitors or {}
    removed = removed_type if players < 4 else None
    in_game = [name for name in topiary.TILE_NAMES if name[0] != removed]
    used = {text.upper() for text in garden.values()}
    used.update(tile for hand in hands or [] for tile in hand)
    spare = iter(tile for tile in in_game if tile not in used)
    if hands is None:
        hands = [[next(spare) for _ in range(3)] for _ in range(players)]
    if unplaced is None:
        quota = topiary.VISITORS_PER_PLAYER[players]
        unplaced = [quota - list(visitors.values()).count(seat) for seat in range(players)]
    rows = []
    for rank in range(5, 0, -1):
        row = []
        for file in FILES:
            cell = f"{file}{rank}"
            if cell in garden:
                row.append(garden[cell])
            else:
                tile = next(spare)
                row.append(tile if cell == "c3" else tile.lower())
        rows.append(row)
    return {
        "game": topiary.NAME,
        "options": {"players": players, **(options or {})},
        "removed_type": removed,
        "garden": rows,
        "visitors": visitors,
        "unplaced": unplaced,
        "hands": hands,
        "to_move": to_move,
        "phase": "play" if any(unplaced) else "over",
    }


def wizards_position(
    rows: str,
    *,
    basket: int | None = None,
    harvested: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
    staff: int | None = None,
    to_move: int = 0,
    phase: str = "play",
    options: dict | None = None,
) -> dict:
    """Wizards' Garden position JSON from four rows of ``W``, ``B`` and ``.``, rank 4 first.

    ``rows`` is one string, rows separated by spaces (``"W... .B.. .... ...."``); the basket
    defaults to the seeds neither on the board nor harvested (20 in all).
    """
    board = [list(row) for row in rows.split()]
    on_board = sum(cell != "." for row in board for cell in row)
    flowers = sum(w + b for w, b in harvested)
    return {
        "game": "wizards_garden",
        "options": options or {},
        "board": board,
        "basket": 20 - on_board - flowers if basket is None else basket,
        "harvested": [{"W": w, "B": b} for w, b in harvested],
        "staff": staff,
        "to_move": to_move,
        "phase": phase,
    }
