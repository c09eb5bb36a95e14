"""Positions written as the cells that matter, for tests, the rules pages and the lessons.

A Topiary position names a few cells; every other cell is dealt face down from the tiles
left over, in a fixed order, so a position is the same every time it is built. A Wizards'
Garden position is its rows; the seeds neither on the board nor harvested are in the
basket. The result is NOTATION.md's position JSON, which ``state_from_json`` then reads
and judges: nothing here knows a rule beyond the shape of a deal.
"""

from __future__ import annotations

from engine import topiary, wizards_garden


def topiary_position(
    garden: dict[str, str],
    *,
    players: int = 2,
    visitors: dict[str, int] | None = None,
    hands: list[list[str]] | None = None,
    removed_type: str = "E",
    to_move: int | None = None,
    options: dict | None = None,
    **fields,
) -> dict:
    """Topiary position JSON: ``garden`` maps cells to ``R3`` (face up) or ``r3`` (face down).

    Cells left out get the unused tiles face down (the centre face up, as the deal leaves
    it); hands default to unused tiles; ``removed_type`` counts with fewer than 4 players
    only; ``unplaced`` follows the visitors and the mover defaults to the first seat with
    visitors left. ``fields`` are further position fields (``first_player``).
    """
    visitors = visitors or {}
    removed = removed_type if players < 4 else None
    in_game = [name for name in topiary.TILE_NAMES if name[0] != removed]
    used = {text.upper() for text in garden.values()}
    used.update(tile for hand in hands or [] for tile in hand)
    spare = iter(tile for tile in in_game if tile not in used)
    if hands is None:
        hands = [[next(spare) for _ in range(topiary.HAND_SIZE)] for _ in range(players)]
    quota = topiary.VISITORS_PER_PLAYER[players]
    unplaced = [quota - list(visitors.values()).count(seat) for seat in range(players)]
    if to_move is None:
        to_move = next((seat for seat in range(players) if unplaced[seat]), 0)
    rows = []
    for rank in range(5, 0, -1):
        row = []
        for file in topiary.FILES:
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
        **fields,
    }


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
        "game": wizards_garden.NAME,
        "board": [list(row) for row in rows],
        "basket": wizards_garden.SEEDS - on_board - flowers if basket is None else basket,
        "harvested": [{"W": w, "B": b} for w, b in harvested],
        "staff": staff,
        "to_move": to_move,
        "phase": phase,
    }
    if options is not None:
        data["options"] = options
    return data
