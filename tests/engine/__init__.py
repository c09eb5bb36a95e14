"""Tests of the pure-Python engine (rules, notation, records, CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

#: Copies of the specification's worked examples (shared/rules/examples), so the suite runs
#: from a checkout anywhere; test_examples.py holds them equal to the originals.
EXAMPLES = Path(__file__).resolve().parent / "examples"
#: The specification itself, beside the checkout when the shared folder is there.
SHARED_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "examples"


def load_example(name: str) -> dict:
    """One of the specification's worked examples; skips the test when they are absent."""
    path = EXAMPLES / name
    if not path.exists():
        pytest.fail(f"missing worked example {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def topiary_position(
    garden: dict[str, str],
    *,
    players: int = 2,
    visitors: dict[str, int] | None = None,
    hands: list[list[str]] | None = None,
    removed_type: str | None = None,
    to_move: int | None = None,
    options: dict | None = None,
    **extra,
) -> dict:
    """Topiary position JSON from the cells that matter; every other cell is face down.

    ``garden`` maps cells to ``R3`` (face up) or ``r3`` (face down); unnamed cells get the
    unused tiles face down (c3 face up), hands default to unused tiles, ``unplaced`` follows
    the visitors and the mover defaults to the first seat with visitors left.
    """
    from engine import topiary

    visitors = visitors or {}
    if players < 4 and removed_type is None:
        removed_type = "E"
    game_tiles = [name for name in topiary.TILE_NAMES if players == 4 or name[0] != removed_type]
    used = {text.upper() for text in garden.values()}
    used.update(tile for hand in hands or [] for tile in hand)
    spare = iter(t for t in game_tiles if t not in used)
    if hands is None:
        hands = [[next(spare) for _ in range(3)] for _ in range(players)]
    quota = topiary.VISITORS_PER_PLAYER[players]
    unplaced = [quota - list(visitors.values()).count(s) for s in range(players)]
    if to_move is None:
        to_move = next((s for s in range(players) if unplaced[s]), 0)
    rows = []
    for rank in range(5, 0, -1):
        row = []
        for f in "abcde":
            cell = f"{f}{rank}"
            spare_tile = None if cell in garden else next(spare)
            row.append(garden.get(cell) or (spare_tile if cell == "c3" else spare_tile.lower()))
        rows.append(row)
    return {
        "game": "topiary",
        "options": {"players": players, **(options or {})},
        "removed_type": removed_type if players < 4 else None,
        "garden": rows,
        "visitors": visitors,
        "unplaced": unplaced,
        "hands": hands,
        "to_move": to_move,
        "phase": "play" if any(unplaced) else "over",
        **extra,
    }
