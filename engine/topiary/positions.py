"""Topiary positions written as the cells that matter (``engine.positions``): every other
cell is dealt face down from the tiles left over, in a fixed order, so a position is the
same every time it is built."""

from __future__ import annotations

from engine.topiary.board import FILES, HAND_SIZE, NAME, TILE_NAMES, VISITORS_PER_PLAYER


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
    in_game = [name for name in TILE_NAMES if name[0] != removed]
    used = {text.upper() for text in garden.values()}
    used.update(tile for hand in hands or [] for tile in hand)
    spare = iter(tile for tile in in_game if tile not in used)
    if hands is None:
        hands = [[next(spare) for _ in range(HAND_SIZE)] for _ in range(players)]
    quota = VISITORS_PER_PLAYER[players]
    unplaced = [quota - list(visitors.values()).count(seat) for seat in range(players)]
    if to_move is None:
        to_move = next((seat for seat in range(players) if unplaced[seat]), 0)
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
        "game": NAME,
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
