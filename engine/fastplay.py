"""Topiary's fast tables under their older name: ``engine.topiary.fastplay`` is the module."""

from engine.topiary.fastplay import (
    BEATS,
    PLANTS,
    POSITIONS_THROUGH,
    Dealer,
    Table,
    hand_points,
    line_points,
    move_code,
    playout,
    totals,
)

__all__ = [
    "BEATS",
    "PLANTS",
    "POSITIONS_THROUGH",
    "Dealer",
    "Table",
    "hand_points",
    "line_points",
    "move_code",
    "playout",
    "totals",
]
