"""Topiary's garden: tiles, cells, the visitor positions and their sight lines, and the rule
options (TOPIARY.md, NOTATION.md). Everything else in the game is built on these codes.

Tiles are ints ``type * 5 + value - 1`` (0..39, ``TYPES`` order); a garden cell holds a tile
face up, ``tile + FACE_DOWN`` face down, ``UNKNOWN`` (views only) for a face-down tile the
viewer does not know, or ``GAP`` for the cell of a pending take. Cells are indexed
``(rank - 1) * 5 + file``, a1 = 0.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.errors import NotationError, gettext_noop

NAME = "topiary"

#: Type letters in tile-code order, and their names.
TYPES = "EHNOPRSW"
TYPE_NAMES = {
    "E": gettext_noop("Elephant"),
    "H": gettext_noop("Polyhedron"),
    "N": gettext_noop("Swan"),
    "O": gettext_noop("Pom Pom"),
    "P": gettext_noop("Pyramid"),
    "R": gettext_noop("T-Rex"),
    "S": gettext_noop("Spiral"),
    "W": gettext_noop("Whale"),
}
ALL_TILES = tuple(range(40))
FACE_DOWN = 40
UNKNOWN = 80
#: The empty cell of a pending take (the tile is in the taker's hand until the plant).
GAP = 81
VISITORS_PER_PLAYER = {2: 8, 3: 6, 4: 5}
HAND_SIZE = 3
PHASES = ("draft", "play", "over")
TIEBREAKS = ("later", "share")

FILES = "abcde"
CELLS = tuple(f"{FILES[i % 5]}{i // 5 + 1}" for i in range(25))
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
CENTRE = CELL_INDEX["c3"]
#: Cell indices in NOTATION.md's garden order: rank 5 first, a to e.
JSON_ORDER = tuple((4 - row) * 5 + col for row in range(5) for col in range(5))

DIRECTIONS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}

TILE_NAMES = tuple(f"{TYPES[t // 5]}{t % 5 + 1}" for t in ALL_TILES)
TILE_INDEX = {name: t for t, name in enumerate(TILE_NAMES)}
TILE_TYPE = tuple(t // 5 for t in ALL_TILES)
TILE_VALUE = tuple(t % 5 + 1 for t in ALL_TILES)


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 5 and 0 <= r < 5


def _build_positions() -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    names, lines = [], []
    for cell in range(25):
        f, r = cell % 5, cell // 5
        for direction, (df, dr) in DIRECTIONS.items():
            if _on_board(f - df, r - dr):
                continue
            line = []
            while _on_board(f, r):
                line.append(r * 5 + f)
                f, r = f + df, r + dr
            f, r = cell % 5, cell // 5
            names.append(f"{CELLS[cell]}:{direction}")
            lines.append(tuple(line))
    return tuple(names), tuple(lines)


#: The 56 visitor positions ("a1:N", ...) and each one's sight line, entry tile first.
POSITIONS, LINES = _build_positions()
POSITION_INDEX = {name: p for p, name in enumerate(POSITIONS)}
_ALL_POSITIONS = tuple(range(len(POSITIONS)))
_NO_CORNERS = tuple(p for p in _ALL_POSITIONS if len(LINES[p]) > 1)


def tile_name(tile: int) -> str:
    """``R3`` for a tile code."""
    return TILE_NAMES[tile]


def parse_tile(text: Any, where: str) -> int:
    """The code of a face-up tile name like ``R3``; ``where`` names the field in errors."""
    if isinstance(text, str) and text in TILE_INDEX:
        return TILE_INDEX[text]
    raise NotationError(code="not_a_tile", field=where, value=text, types=TYPES)


def _parse_cell_tile(text: Any, where: str) -> int:
    """A garden cell of a full position: ``R3`` face up or ``r3`` face down (known)."""
    if isinstance(text, str) and text in TILE_INDEX:
        return TILE_INDEX[text]
    if isinstance(text, str) and text[:1].islower() and text[:1].upper() + text[1:] in TILE_INDEX:
        return TILE_INDEX[text[:1].upper() + text[1:]] + FACE_DOWN
    if text == ".":
        return GAP
    if text == "?":
        raise NotationError(code="unknown_in_full_position", field=where)
    raise NotationError(code="not_a_garden_cell", field=where, value=text)


def _cell_text(value: int) -> str:
    if value == GAP:
        return "."
    if value >= UNKNOWN:
        return "?"
    if value >= FACE_DOWN:
        return TILE_NAMES[value - FACE_DOWN].lower()
    return TILE_NAMES[value]


def _require(condition: bool, code: str, **params) -> None:
    if not condition:
        raise NotationError(code=code, **params)


def _mask_tiles(mask: int) -> tuple[int, ...]:
    return tuple(t for t in ALL_TILES if mask >> t & 1)


def _seat(data: Any, where: str, players: int) -> int:
    _require(
        type(data) is int and 0 <= data < players,
        "not_a_seat",
        field=where,
        value=data,
        last=players - 1,
    )
    return data


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options of a table (TOPIARY.md); defaults are the published rules."""

    players: int = 2
    corner_diagonals: bool = True
    must_pick: bool = False
    tiebreak: str = "later"
    draft: bool = False

    def __post_init__(self):
        if type(self.players) is not int or self.players not in VISITORS_PER_PLAYER:
            raise NotationError(code="option_players", value=self.players)
        for name in ("corner_diagonals", "must_pick", "draft"):
            if type(getattr(self, name)) is not bool:
                raise NotationError(code="option_not_bool", option=name, value=getattr(self, name))
        if self.tiebreak not in TIEBREAKS:
            raise NotationError(code="option_tiebreak", value=self.tiebreak)

    @classmethod
    def from_json(cls, data: Any) -> Options:
        """Options from NOTATION.md's ``options`` object; omitted options take their defaults."""
        _require(isinstance(data, dict), "options_not_object", value=data)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise NotationError(code="options_unknown", option=unknown[0])
        return cls(**data)

    def to_json(self) -> dict:
        """Every option, NOTATION.md's ``options`` object."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def visitors_each(self) -> int:
        """Visitors per player."""
        return VISITORS_PER_PLAYER[self.players]

    @property
    def positions(self) -> tuple[int, ...]:
        """Indices of the positions in play (56, or 48 without corner diagonals)."""
        return _ALL_POSITIONS if self.corner_diagonals else _NO_CORNERS

    def game_tiles(self, removed_type: int | None) -> tuple[int, ...]:
        """The tiles in the game once the removed type is out."""
        return tuple(t for t in ALL_TILES if TILE_TYPE[t] != removed_type)
