"""Topiary: the rules of /work/shared/rules/TOPIARY.md, notation of NOTATION.md.

    state = new_game(Options(players=2), seed=1)
    state.legal_moves()              # ['a1:E', 'a1:E a1=*', 'a1:E a1=H2', ...]
    state = state.apply("c5:S c4=*")  # a whole move; or, as at the table, in two steps:
    pending = state.apply("b5:S b4")  # the take step: b4's tile is in the mover's hand now
    state = pending.apply("=R3")      # the plant step (``legal_steps()`` lists the steps)
    state.view(0).to_json()          # what seat 0 may know
    state.score()                    # NOTATION.md's score JSON

The deal (``new_game``), exactly, so that any program can reproduce it:

1. ``rng = Rng(seed)``.
2. ``drawn_type = rng.randbelow(8)``, then ``drawn_first = rng.randbelow(players)``. Both are
   always drawn, so a deal with an explicit ``removed_type`` or ``first_player`` equal to
   the drawn one is the same deal. With 2 or 3 players the removed type is
   ``removed_type`` if given, else ``TYPES[drawn_type]`` (``TYPES = "EHNOPRSW"``); with 4
   players no type is removed. The first player is ``first_player`` if given, else
   ``drawn_first``.
3. The tiles still in the game, in the order E1..E5, H1..H5, ..., W1..W5, are put in a list
   and ``rng.shuffle(list)`` shuffles them.
4. The first 25 fill the garden face down in the order NOTATION.md's JSON lists it (rank 5
   first, files a to e in each rank); then c3 is turned face up.
5. The next 3 are seat 0's hand, the next 3 seat 1's, and so on; the rest is the box.

With the ``draft`` option, the game starts in phase ``draft``: the player last in turn
order has taken the box (the leftovers) as the tiles passed to them; each ``keep`` move keeps
3 of hand + passed tiles and passes the rest to the previous player in turn order; the first
player's pass goes back to the box and phase ``play`` starts with the first player.

Speed (perft, bots, the puzzle solver): besides the notation API, a state offers a fast
path on plain ints. ``move_codes()`` lists moves as ints, ``apply_code(code)`` plays
one without checks, ``move_name(code)`` and ``State.code_of(text)`` convert. A play move's
code is ``(position * 26 + cell) * 41 + plant`` where ``position`` indexes ``POSITIONS``,
``cell`` is the taken cell's index (``25``: no take) and ``plant`` is ``0`` for ``*`` (or
no take) and ``tile + 1`` for a hand tile; a draft move ``keep`` is ``-mask``, the bitmask of
the three kept tiles. A turn with a take can also be played in two steps (``legal_steps``,
``step_codes``): a take step's code is ``TAKE_STEP + position * 26 + cell`` and a plant
step's ``PLANT_STEP + plant``; a pending state's ``move_codes()`` are its plant steps.
Tiles are ints ``type * 5 + value - 1`` (0..39, ``TYPES`` order); a
garden cell holds a tile face up, ``tile + 40`` face down, or ``80`` (views only) for a
face-down tile the viewer does not know. Cells are indexed ``(rank - 1) * 5 + file``, a1 = 0.
``children()`` gives every next state, ``perft(state, depth)`` counts the move tree and
``sample_state(view, rng)`` deals a view's hidden tiles at random for searching bots. A
state is a named tuple of ints and tuples (``apply_code`` builds a new one, nothing is
copied deeply), and a line's moves are built once per hand and face-down pattern and reused.
"""

from __future__ import annotations

import functools
import itertools
import sys
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from engine import records
from engine.definition import GameDefinition, RuleOption, ScoreColumn
from engine.errors import IllegalMove, NotationError, RecordError
from engine.rng import Rng

NAME = "topiary"

#: Type letters in tile-code order, and their names.
TYPES = "EHNOPRSW"
TYPE_NAMES = {
    "E": "Elephant",
    "H": "Polyhedron",
    "N": "Swan",
    "O": "Pom Pom",
    "P": "Pyramid",
    "R": "T-Rex",
    "S": "Spiral",
    "W": "Whale",
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
NO_TAKE = 25
_PLANTS = 41
#: Move code of placing at a position without a take.
_PLACE_CODE = tuple((p * 26 + NO_TAKE) * _PLANTS for p in range(len(POSITIONS)))
#: Per position: (cell, code base) for every cell of its line; add the plant to the base.
_TAKE_BASES = tuple(
    tuple((cell, (p * 26 + cell) * _PLANTS) for cell in line) for p, line in enumerate(LINES)
)
#: Step codes (a turn with a take in two decisions): a take step is ``TAKE_STEP + position *
#: 26 + cell``, a plant step ``PLANT_STEP + plant`` (``plant`` as in a move code). Both lie
#: above every move code, so ``apply_code`` tells them apart with one comparison.
TAKE_STEP = 1 << 17
PLANT_STEP = 1 << 18
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


# --------------------------------------------------------------------------- options


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


# --------------------------------------------------------------------------- scoring
#
# One scoring core, ``line_points`` and ``hand_points`` on bitmasks: the bots, the playouts
# and the puzzle solver call it in their hot loops (``engine.fastplay`` re-exports it), and
# ``score``, ``public_score``, ``totals`` and ``sight_lines`` are read off it.

#: Per tile: the bitmask of same-type tiles of larger value (rule 3 of scoring).
BEATS = tuple(sum(1 << (t - t % 5 + v) for v in range(t % 5 + 1, 5)) for t in ALL_TILES)


def line_points(garden, line) -> tuple[int, int]:
    """``(points, seen)`` of one sight line: values seen plus type bonus, and the seen tiles.

    ``seen`` is a bitmask (bit ``tile``). A face-down, unknown or gap cell is never seen and
    never blocks; a face-up tile is seen when it is the first or higher than every tile seen
    before it; each type seen k >= 2 times adds k.
    """
    top = points = seen = kinds = pairs = 0
    for cell in line:
        tile = garden[cell]
        if tile >= FACE_DOWN:
            continue
        value = tile % 5 + 1
        if value > top:
            top = value
            points += value
            seen |= 1 << tile
            kind = 1 << (tile // 5)
            if kinds & kind:
                # The second tile of a type adds 2 (k = 2), each later one adds 1 more.
                points += 1 if pairs & kind else 2
                pairs |= kind
            kinds |= kind
    return points, seen


def hand_points(hand, seen: int) -> int:
    """Points from tiles in hand for a player whose visitors see the tiles in ``seen``.

    A hand tile scores when ``seen & BEATS[tile]``: a tile of its type with a larger value
    is seen, so one AND answers rule 3 for any union of lines.
    """
    return sum(TILE_VALUE[t] for t in hand if seen & BEATS[t])


def totals(garden, visitors, hands, players: int) -> tuple[list[int], list[int]]:
    """Every seat's (total, hand points) for a position with known hands."""
    points = [0] * players
    seen = [0] * players
    for p, seat in enumerate(visitors):
        if seat >= 0:
            pts, mask = line_points(garden, LINES[p])
            points[seat] += pts
            seen[seat] |= mask
    hand = [hand_points(hands[s], seen[s]) for s in range(players)]
    return [points[s] + hand[s] for s in range(players)], hand


def _score_parts(
    garden: tuple[int, ...], visitors: tuple[int, ...], hands, players: int
) -> tuple[list[int], list[int], list[int | None]]:
    """Per seat: values seen, type bonus, hand points (None where the hand is unknown)."""
    values = [0] * players
    bonus = [0] * players
    seen = [0] * players
    for p, seat in enumerate(visitors):
        if seat >= 0:
            points, mask = line_points(garden, LINES[p])
            line_values = sum(TILE_VALUE[t] for t in _mask_tiles(mask))
            values[seat] += line_values
            bonus[seat] += points - line_values
            seen[seat] |= mask
    hand = [None if hands[s] is None else hand_points(hands[s], seen[s]) for s in range(players)]
    return values, bonus, hand


def _sight_lines(
    garden: tuple[int, ...], visitors: tuple[int, ...], free: tuple[int, ...] = ()
) -> list[dict]:
    """Each placed visitor, its line, the face-up tiles it sees and the points they make
    (``line_points`` spelled out in notation); then each position of ``free`` (seat None).

    Every viewer of a position sees the same lines (face-up tiles only), and a server
    sends them to each viewer of every change; a move changes one or two lines, so each
    line's sight is worked out once for the tiles on it (``_line_sight``). Each sight is a
    fresh dict; its ``line`` and ``seen`` lists are shared, read only.
    """
    sights = []
    placed = [(p, seat) for p, seat in enumerate(visitors) if seat >= 0]
    for p, seat in placed + [(p, None) for p in free]:
        seen, points = _line_sight(p, tuple([garden[cell] for cell in LINES[p]]))
        sights.append(
            {
                "position": POSITIONS[p],
                "seat": seat,
                "line": _LINE_CELLS[p],
                "seen": seen,
                "points": points,
            }
        )
    return sights


#: Per position: its line's cells in notation (shared by every sight of that position).
_LINE_CELLS = tuple([CELLS[cell] for cell in line] for line in LINES)
#: Per cell, per face-up tile: the ``seen`` entry of that tile on that cell (shared).
_SEEN_ENTRY = tuple(
    tuple({"cell": CELLS[cell], "tile": TILE_NAMES[tile]} for tile in range(FACE_DOWN))
    for cell in range(25)
)
#: Lines kept by ``_line_sight``: a mover's frame shows every free position's line too
#: (up to 56), so this is about a thousand games' lines, some 25 MB at most.
_LINE_SIGHTS_KEPT = 1 << 16


@functools.lru_cache(maxsize=_LINE_SIGHTS_KEPT)
def _line_sight(p: int, tiles: tuple[int, ...]) -> tuple[list[dict], int]:
    """(tiles seen, points) of position ``p``'s line when ``tiles`` lie on it."""
    points, seen = line_points(tiles, range(len(tiles)))
    return [
        _SEEN_ENTRY[cell][tile]
        for cell, tile in zip(LINES[p], tiles, strict=True)
        if tile < FACE_DOWN and seen >> tile & 1
    ], points


def _turn_order(first_player: int, players: int) -> list[int]:
    return [(first_player + i) % players for i in range(players)]


def _scoring_hand_tiles(garden, visitors, hands) -> list[list[str]]:
    """Per seat, the tiles of its hand that score (``hand_points`` tile by tile)."""
    seen = [0] * len(hands)
    for p, seat in enumerate(visitors):
        if seat >= 0:
            seen[seat] |= line_points(garden, LINES[p])[1]
    return [[TILE_NAMES[t] for t in hand if seen[s] & BEATS[t]] for s, hand in enumerate(hands)]


def winners(totals, hand_points, first_player: int, tiebreak: str = "later") -> list[int]:
    """The winning seats: highest total, then most hand points, then ``tiebreak``.

    ``"later"``: the tied seat later in turn order (counted from ``first_player``) wins;
    ``"share"``: every still-tied seat wins.
    """
    players = len(totals)
    best = max((totals[s], hand_points[s]) for s in range(players))
    tied = [s for s in _turn_order(first_player, players) if (totals[s], hand_points[s]) == best]
    if tiebreak == "share":
        return sorted(tied)
    return [tied[-1]]


# --------------------------------------------------------------------------- move generation


#: Per (hand, must_pick): per position, the move codes for each face-down pattern of its line.
_CODES_BY_HAND: dict[tuple, list[dict[int, tuple[int, ...]]]] = {}
#: Hands kept in ``_CODES_BY_HAND`` before it starts afresh (bounds its memory).
_CODES_HANDS_KEPT = 512
_LINE_MASKS = tuple(sum(1 << cell for cell in line) for line in LINES)


def _line_codes(p: int, pattern: int, hand: tuple[int, ...], must_pick: bool) -> tuple[int, ...]:
    """The moves at position ``p`` when ``pattern`` marks the face-down cells of its line."""
    takes = tuple(
        base + plant
        for cell, base in _TAKE_BASES[p]
        if pattern >> cell & 1
        for plant in (0, hand[0] + 1, hand[1] + 1, hand[2] + 1)
    )
    return takes if must_pick and takes else (_PLACE_CODE[p], *takes)


def _play_codes(face_down: int, visitors, hand, positions, must_pick: bool) -> list[int]:
    """The legal play moves; a line's moves depend only on its face-down cells and the hand,
    so they are built once per (hand, pattern) and reused."""
    by_position = _CODES_BY_HAND.get((hand, must_pick))
    if by_position is None:
        if len(_CODES_BY_HAND) >= _CODES_HANDS_KEPT:
            _CODES_BY_HAND.clear()
        by_position = _CODES_BY_HAND[hand, must_pick] = [{} for _ in LINES]
    out: list[int] = []
    for p in positions:
        if visitors[p] < 0:
            pattern = face_down & _LINE_MASKS[p]
            known = by_position[p]
            codes = known.get(pattern)
            if codes is None:
                codes = known[pattern] = _line_codes(p, pattern, hand, must_pick)
            out += codes
    return out


def _turn_names(face_down: int, visitors, positions, must_pick: bool, hand=None) -> list[str]:
    """With ``hand``: ``sorted(map(move_name, _play_codes(...)))``; without it, the first
    steps, ``sorted(map(move_name, _step_codes(...)))``. Written in order, not sorted.

    A frame for the player to move lists every legal move (several hundred) and step, and
    making and sorting their names was most of the frame. A move's name starts with its
    position's, and a space sorts before every character of a name, so the moves come
    position by position in the order of the positions' names; within one, the place
    alone first, then each take by its cell's name, then by the planted tile's (``*``
    first). That order is worked out once per line (``_TAKE_STEP_NAMES``).
    """
    lines = _TAKE_STEP_NAMES if hand is None else _TAKE_PREFIXES
    plants = ["*", *sorted(TILE_NAMES[tile] for tile in hand or ())]
    out: list[str] = []
    for p in _by_name(positions):
        if visitors[p] < 0:
            takes = [name for cell, name in lines[p] if face_down >> cell & 1]
            if not (must_pick and takes):
                out.append(POSITIONS[p])
            if hand is None:
                out += takes
            else:
                out += [take + plant for take in takes for plant in plants]
    return out


@functools.cache
def _by_name(positions: tuple[int, ...]) -> tuple[int, ...]:
    """``positions`` in the order of their names."""
    return tuple(sorted(positions, key=POSITIONS.__getitem__))


#: Per position: (cell, "position cell") for every cell of its line, by the cell's name.
_TAKE_STEP_NAMES = tuple(
    tuple(sorted(((cell, f"{POSITIONS[p]} {CELLS[cell]}") for cell in line), key=lambda x: x[1]))
    for p, line in enumerate(LINES)
)
#: The same with ``=``: what a whole move's name starts with before the planted tile.
_TAKE_PREFIXES = tuple(
    tuple((cell, name + "=") for cell, name in takes) for takes in _TAKE_STEP_NAMES
)


def _step_codes(face_down: int, visitors, positions, must_pick: bool) -> list[int]:
    """The first decisions of a play turn: place only (unless ``must_pick`` forbids it) and
    place-and-take, one code each (a take's plant is the second decision)."""
    out: list[int] = []
    for p in positions:
        if visitors[p] < 0:
            base = TAKE_STEP + p * 26
            takes = [base + cell for cell in LINES[p] if face_down >> cell & 1]
            if not (must_pick and takes):
                out.append(_PLACE_CODE[p])
            out += takes
    return out


def _plant_codes(hand: tuple[int, ...], took: int) -> list[int]:
    """The plant steps of a pending take: ``=*`` and each tile held before the take."""
    return [PLANT_STEP, *(PLANT_STEP + tile + 1 for tile in hand if tile != took)]


def _keep_codes(pool: tuple[int, ...]) -> list[int]:
    return [-((1 << a) | (1 << b) | (1 << c)) for a, b, c in itertools.combinations(pool, 3)]


def _mask_tiles(mask: int) -> tuple[int, ...]:
    return tuple(t for t in ALL_TILES if mask >> t & 1)


@functools.cache
def move_name(code: int) -> str:
    """The notation of a move code (see the module docstring).

    Kept once worked out: a frame for the player to move lists every legal move (several
    hundred in a Topiary turn), one is built after every move, and codes are few (tens of
    thousands) and always mean the same move."""
    if code < 0:
        return "keep " + " ".join(TILE_NAMES[t] for t in _mask_tiles(-code))
    if code >= PLANT_STEP:
        plant = code - PLANT_STEP
        return "=*" if plant == 0 else f"={TILE_NAMES[plant - 1]}"
    if code >= TAKE_STEP:
        p, cell = divmod(code - TAKE_STEP, 26)
        return f"{POSITIONS[p]} {CELLS[cell]}"
    rest, plant = divmod(code, _PLANTS)
    p, cell = divmod(rest, 26)
    if cell == NO_TAKE:
        return POSITIONS[p]
    return f"{POSITIONS[p]} {CELLS[cell]}={'*' if plant == 0 else TILE_NAMES[plant - 1]}"


def decode_move(code: int) -> tuple[int, int | None, int | None]:
    """A play move code as (position index, taken cell or None, planted hand tile or None).

    ``None`` as the planted tile means the taken tile itself (``*``) or no take. Full moves
    only, not step codes.
    """
    rest, plant = divmod(code, _PLANTS)
    p, cell = divmod(rest, 26)
    return p, (None if cell == NO_TAKE else cell), (None if plant == 0 else plant - 1)


def _parse_move(text: Any) -> int:
    """A move code from notation; raises IllegalMove saying what is malformed.

    Only the syntax is checked here; the rules are checked against the state.
    """
    if not isinstance(text, str):
        raise IllegalMove(code="move_not_text", move=text)
    parts = text.split()
    if not parts:
        raise IllegalMove(code="move_empty")
    if parts[0] == "keep":
        tiles = parts[1:]
        if len(tiles) != HAND_SIZE:
            raise IllegalMove(code="keep_tile_count", move=text)
        mask = 0
        for name in tiles:
            if name not in TILE_INDEX:
                raise IllegalMove(code="move_not_a_tile", move=text, tile=name)
            if mask >> TILE_INDEX[name] & 1:
                raise IllegalMove(code="keep_tile_twice", move=text, tile=name)
            mask |= 1 << TILE_INDEX[name]
        return -mask
    if parts[0].startswith("="):
        name = parts[0][1:]
        if len(parts) > 1 or not (name == "*" or name in TILE_INDEX):
            raise IllegalMove(code="plant_step_malformed", move=text)
        return PLANT_STEP + (0 if name == "*" else TILE_INDEX[name] + 1)
    if len(parts) > 2:
        raise IllegalMove(code="move_malformed", move=text)
    p = POSITION_INDEX.get(parts[0])
    if p is None:
        raise IllegalMove(code="move_no_such_position", move=text, position=parts[0])
    if len(parts) == 1:
        return _PLACE_CODE[p]
    cell_name, eq, plant_name = parts[1].partition("=")
    if not eq and cell_name in CELL_INDEX:
        return TAKE_STEP + p * 26 + CELL_INDEX[cell_name]
    if not eq or cell_name not in CELL_INDEX:
        raise IllegalMove(code="take_malformed", move=text)
    if plant_name == "*":
        plant = 0
    elif plant_name in TILE_INDEX:
        plant = TILE_INDEX[plant_name] + 1
    else:
        raise IllegalMove(code="plant_not_a_tile", move=text, tile=plant_name)
    return (p * 26 + CELL_INDEX[cell_name]) * _PLANTS + plant


def join_steps(take_step: str, plant_step: str, took: str) -> str:
    """The finished move of a turn played in two steps, as records and move lists write it.

    ``join_steps("c5:S c4", "=R3", "N2") == "c5:S c4=R3"``; planting the taken tile, by
    ``=*`` or by its name (``took``), gives ``"c5:S c4=*"``.
    """
    take, plant = _parse_move(take_step), _parse_move(plant_step)
    if not TAKE_STEP <= take < PLANT_STEP:
        raise IllegalMove(code="not_a_take_step", move=take_step)
    if plant < PLANT_STEP:
        raise IllegalMove(code="not_a_plant_step", move=plant_step)
    taken = parse_tile(took, "took")
    planted = plant - PLANT_STEP - 1
    return f"{move_name(take)}={'*' if planted in (-1, taken) else TILE_NAMES[planted]}"


def move_seen_by(move: str, *, mover: int, viewer: int | None, took: str | None, over: bool) -> str:
    """The form of a recorded move or step that ``viewer`` (a seat, None: a spectator) may see.

    Once the game is over, and always for the mover, the move as played. Otherwise a draft
    move is ``keep`` without its tiles, and a plant of the taken tile (``c5:S c4=*``,
    ``=*``) names the tile planted, face up now, so nobody else learns whether it was the
    taken one or came from the hand; ``took`` is the recorded taken tile (None: no take).
    """
    if over or viewer == mover:
        return move
    if move.split()[:1] == ["keep"]:
        return "keep"
    head, eq, plant = move.rpartition("=")
    if eq and plant == "*":
        if took is None:
            raise NotationError(code="took_not_given", move=move)
        return f"{head}={took}"
    return move


# --------------------------------------------------------------------------- state


class _Seated:
    __slots__ = ()

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.options.players

    @property
    def is_over(self) -> bool:
        """True once the last visitor is placed."""
        return self.phase == "over"

    @property
    def pending_step(self) -> str | None:
        """The take step waiting for its plant (``"c5:S c4"``), else None."""
        if self.pending is None:
            return None
        p, cell, _ = self.pending
        return f"{POSITIONS[p]} {CELLS[cell]}"


class _Frozen(_Seated):
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


_set = object.__setattr__
_new_state = tuple.__new__


def _free_positions(position, free: bool) -> tuple[int, ...]:
    """The unoccupied positions in play of a state or view when ``free``, else none."""
    if not free:
        return ()
    return tuple(p for p in position.options.positions if position.visitors[p] < 0)


def _replaced(items: tuple, index: int, value) -> tuple:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def _face_down_mask(garden: tuple[int, ...]) -> int:
    return sum(1 << cell for cell in range(25) if FACE_DOWN <= garden[cell] < GAP)


def _next_turn(mover: int, unplaced: tuple[int, ...]) -> tuple[int, str]:
    """``(to_move, phase)`` once ``mover``'s turn is finished."""
    players = len(unplaced)
    for step in range(1, players + 1):
        seat = (mover + step) % players
        if unplaced[seat]:
            return seat, "play"
    return (mover + 1) % players, "over"


class _StateFields(NamedTuple):
    options: Options
    #: 25 cells by index: a tile face up, tile + FACE_DOWN face down.
    garden: tuple[int, ...]
    #: Per position index: the seat of the visitor there, or -1.
    visitors: tuple[int, ...]
    unplaced: tuple[int, ...]
    #: Per seat, the 3 tiles in hand, sorted.
    hands: tuple[tuple[int, ...], ...]
    box: tuple[int, ...]
    to_move: int
    phase: str
    removed_type: int | None
    first_player: int
    #: Draft only: per seat, the tiles passed to it / passed on by it (None: not yet).
    received: tuple[tuple[int, ...] | None, ...] | None
    passed_on: tuple[tuple[int, ...] | None, ...] | None
    #: Bitmask of the face-down cells (derived from ``garden``, for move generation).
    face_down: int
    #: A take waiting for its plant: (position, cell, taken tile), else None. The visitor is
    #: placed, the cell is ``GAP`` and the taken tile is the 4th in the mover's hand.
    pending: tuple[int, int, int] | None = None


class State(_Seated, _StateFields):
    """A full Topiary position: every identity known. Immutable; ``apply`` returns a new one.

    A named tuple of plain ints and tuples, so copying, hashing and comparing are cheap.
    """

    __slots__ = ()

    def __repr__(self):
        return f"<topiary.State {self.phase} to_move={self.to_move} {self.to_json()}>"

    # -- moves

    def move_codes(self) -> list[int]:
        """The mover's legal moves as codes (fast path; unsorted).

        With a take pending, the plant steps (the only way to finish the turn)."""
        if self.pending is not None:
            return _plant_codes(self.hands[self.to_move], self.pending[2])
        if self.phase == "play":
            return _play_codes(
                self.face_down,
                self.visitors,
                self.hands[self.to_move],
                self.options.positions,
                self.options.must_pick,
            )
        if self.phase == "draft":
            return _keep_codes(self._draft_pool())
        return []

    def legal_moves(self) -> list[str]:
        """The mover's legal moves in notation, sorted, each once (plant steps when pending)."""
        if self.phase == "play" and self.pending is None:
            return _turn_names(
                self.face_down,
                self.visitors,
                self.options.positions,
                self.options.must_pick,
                self.hands[self.to_move],
            )
        return sorted(map(move_name, self.move_codes()))

    def step_codes(self) -> list[int]:
        """The mover's next decisions as codes (unsorted); see ``legal_steps``."""
        if self.phase == "play" and self.pending is None:
            return _step_codes(
                self.face_down, self.visitors, self.options.positions, self.options.must_pick
            )
        return self.move_codes()

    def legal_steps(self) -> list[str]:
        """The mover's next decision as at the table, sorted, each once.

        In play: ``c5:S`` (place only, unless ``must_pick`` forbids it) and ``c5:S c4`` (place
        and take); with a take pending: ``=*`` and ``=`` each tile held before the take. In the
        draft, the keep moves.
        """
        if self.phase == "play" and self.pending is None:
            return _turn_names(
                self.face_down, self.visitors, self.options.positions, self.options.must_pick
            )
        return sorted(map(move_name, self.step_codes()))

    def _draft_pool(self) -> tuple[int, ...]:
        return tuple(sorted(self.hands[self.to_move] + self.received[self.to_move]))

    def code_of(self, move: str, seat: int | None = None) -> int:
        """The code of a legal move; IllegalMove saying why if it is not legal."""
        if self.phase == "over":
            raise IllegalMove(code="game_over", move=move)
        if seat is not None and seat != self.to_move:
            if not 0 <= seat < self.players:
                raise IllegalMove(code="move_no_such_seat", move=move, seat=seat)
            if self.phase == "play" and self.unplaced[seat] == 0:
                raise IllegalMove(code="seat_no_visitors_left", move=move, seat=seat)
            raise IllegalMove(code="not_your_turn", move=move, to_move=self.to_move)
        code = _parse_move(move)
        if self.pending is not None:
            return self._plant_code_of(move, code)
        if code >= PLANT_STEP:
            raise IllegalMove(code="nothing_to_plant", move=move)
        if self.phase == "draft":
            if code >= 0:
                raise IllegalMove(code="draft_expects_keep", move=move)
            pool = self._draft_pool()
            for tile in _mask_tiles(-code):
                if tile not in pool:
                    raise IllegalMove(code="keep_tile_not_held", move=move, tile=TILE_NAMES[tile])
            return code
        if code < 0:
            raise IllegalMove(code="draft_over", move=move)
        if code >= TAKE_STEP:
            (p, cell), plant = divmod(code - TAKE_STEP, 26), None
        else:
            p, cell, plant = decode_move(code)
        position = POSITIONS[p]
        if p not in self.options.positions:
            raise IllegalMove(code="position_not_in_play", move=move, position=position)
        if self.visitors[p] >= 0:
            raise IllegalMove(code="position_occupied", move=move, position=position)
        line = LINES[p]
        if cell is None:
            if self.options.must_pick and any(self.garden[c] >= FACE_DOWN for c in line):
                raise IllegalMove(code="must_take", move=move, position=position)
            return code
        if cell not in line:
            raise IllegalMove(
                code="cell_not_in_line", move=move, cell=CELLS[cell], position=position
            )
        if self.garden[cell] < FACE_DOWN:
            raise IllegalMove(code="cell_face_up", move=move, cell=CELLS[cell])
        # A tile named here must be in hand before the take, even if it is the one taken:
        # accepting it would let a player probe face-down identities through errors.
        if plant is not None and plant not in self.hands[self.to_move]:
            raise IllegalMove(code="plant_tile_not_in_hand", move=move, tile=TILE_NAMES[plant])
        return code

    def _plant_code_of(self, move: str, code: int) -> int:
        p, cell, _ = self.pending
        if code < PLANT_STEP:
            raise IllegalMove(
                code="plant_first", move=move, cell=CELLS[cell], position=POSITIONS[p]
            )
        planted = code - PLANT_STEP - 1
        if planted >= 0 and planted not in self.hands[self.to_move]:
            raise IllegalMove(code="tile_not_in_hand", move=move, tile=TILE_NAMES[planted])
        return code

    def apply(self, move: str, seat: int | None = None) -> State:
        """The state after ``move``; IllegalMove with the reason if the rules forbid it.

        ``seat``, if given, is who is moving: a move by anyone but the mover is refused.
        ``move`` is a whole move or a step: a take step ``c5:S c4`` gives a pending state
        (same mover), whose only moves are the plant steps ``=*`` / ``=R3``.
        """
        return self.apply_code(self.code_of(move, seat))

    def took(self, move: str) -> str | None:
        """The tile a legal move or take step takes (for the record), or None."""
        code = self.code_of(move)
        if code < 0 or code >= PLANT_STEP:
            return None
        cell = (code - TAKE_STEP) % 26 if code >= TAKE_STEP else decode_move(code)[1]
        return None if cell is None else TILE_NAMES[self.garden[cell] - FACE_DOWN]

    def apply_code(self, code: int) -> State:
        """The state after a legal move code (fast path: no checks)."""
        if code < 0:
            return self._apply_keep(code)
        if code >= TAKE_STEP:
            return self._apply_step(code)
        rest, plant = divmod(code, _PLANTS)
        p, cell = divmod(rest, 26)
        (options, garden, visitors, unplaced, hands, box, mover, _, removed, first, received,
         passed_on, face_down, _) = self  # fmt: skip
        if cell != NO_TAKE:
            taken = garden[cell] - FACE_DOWN
            face_down &= ~(1 << cell)
            if plant == 0:
                garden = (*garden[:cell], taken, *garden[cell + 1 :])
            else:
                planted = plant - 1
                garden = (*garden[:cell], planted, *garden[cell + 1 :])
                hand = tuple(sorted([t for t in hands[mover] if t != planted] + [taken]))
                hands = (*hands[:mover], hand, *hands[mover + 1 :])
        visitors = (*visitors[:p], mover, *visitors[p + 1 :])
        unplaced = (*unplaced[:mover], unplaced[mover] - 1, *unplaced[mover + 1 :])
        players = len(unplaced)
        phase = "over"
        to_move = (mover + 1) % players
        for step in range(1, players + 1):
            seat = (mover + step) % players
            if unplaced[seat]:
                to_move = seat
                phase = "play"
                break
        return _new_state(
            State,
            (options, garden, visitors, unplaced, hands, box, to_move, phase, removed, first,
             received, passed_on, face_down, None),
        )  # fmt: skip

    def _apply_step(self, code: int) -> State:
        mover, hands = self.to_move, self.hands
        if code >= PLANT_STEP:
            _, cell, took = self.pending
            planted = took if code == PLANT_STEP else code - PLANT_STEP - 1
            to_move, phase = _next_turn(mover, self.unplaced)
            return self._replace(
                garden=_replaced(self.garden, cell, planted),
                hands=_replaced(hands, mover, tuple(t for t in hands[mover] if t != planted)),
                to_move=to_move,
                phase=phase,
                pending=None,
            )
        p, cell = divmod(code - TAKE_STEP, 26)
        took = self.garden[cell] - FACE_DOWN
        return self._replace(
            garden=_replaced(self.garden, cell, GAP),
            visitors=_replaced(self.visitors, p, mover),
            unplaced=_replaced(self.unplaced, mover, self.unplaced[mover] - 1),
            hands=_replaced(hands, mover, tuple(sorted((*hands[mover], took)))),
            face_down=self.face_down & ~(1 << cell),
            pending=(p, cell, took),
        )

    def _apply_keep(self, code: int) -> State:
        mover = self.to_move
        kept = _mask_tiles(-code)
        passed = tuple(t for t in self._draft_pool() if t not in kept)
        hands = _replaced(self.hands, mover, kept)
        passed_on = _replaced(self.passed_on, mover, passed)
        if mover == self.first_player:
            return self._replace(
                hands=hands,
                passed_on=passed_on,
                box=tuple(sorted(self.box + passed)),
                to_move=self.first_player,
                phase="play",
            )
        receiver = (mover - 1) % self.players
        received = _replaced(self.received, receiver, passed)
        return self._replace(hands=hands, passed_on=passed_on, received=received, to_move=receiver)

    def children(self) -> list[State]:
        """The states after each legal move, in ``move_codes()`` order (plants when pending)."""
        apply_code = self.apply_code
        return [apply_code(code) for code in self.move_codes()]

    # -- scoring

    def score(self) -> dict:
        """NOTATION.md's score JSON for the position as it stands."""
        seen, bonus, hand = _score_parts(self.garden, self.visitors, self.hands, self.players)
        totals = [seen[s] + bonus[s] + hand[s] for s in range(self.players)]
        return {
            "scores": [
                {
                    "seat": s,
                    "visitors": seen[s],
                    "bonus": bonus[s],
                    "hand": hand[s],
                    "total": totals[s],
                }
                for s in range(self.players)
            ],
            "winners": winners(totals, hand, self.first_player, self.options.tiebreak),
        }

    def sight_lines(self, free: bool = False) -> list[dict]:
        """Each placed visitor: ``position``, ``seat``, ``line``, ``seen`` and ``points``.

        With ``free``, then each free position in play (``seat`` None): what a visitor
        placed there would see now."""
        return _sight_lines(self.garden, self.visitors, _free_positions(self, free))

    def scoring_hand_tiles(self) -> list[list[str]]:
        """Per seat, the tiles in hand that score now (a larger tile of their type is seen)."""
        return _scoring_hand_tiles(self.garden, self.visitors, self.hands)

    def totals(self) -> tuple[int, ...]:
        """Each seat's total score as the position stands (fast path for search)."""
        return tuple(totals(self.garden, self.visitors, self.hands, self.players)[0])

    # -- notation

    def to_json(self) -> dict:
        """The full position, NOTATION.md's JSON (plus ``first_player`` and ``box``)."""
        data = _position_json(
            self.options,
            self.removed_type,
            self.garden,
            self.visitors,
            self.unplaced,
            [[TILE_NAMES[t] for t in hand] for hand in self.hands],
            self.to_move,
            self.phase,
            self.first_player,
        )
        if self.received is not None:
            data["draft"] = {
                "received": [_tiles_json(x) for x in self.received],
                "passed_on": [_tiles_json(x) for x in self.passed_on],
            }
        if self.pending is not None:
            data["pending"] = _pending_json(self.pending)
        data["box"] = [TILE_NAMES[t] for t in self.box]
        return data

    # -- views

    def view(self, seat: int) -> View:
        """What ``seat`` may know."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalMove(code="no_such_seat", seat=seat)
        return self._view(seat)

    def spectator_view(self) -> View:
        """What anyone may know."""
        return self._view(None)

    def _view(self, seat: int | None) -> View:
        garden = tuple(UNKNOWN if FACE_DOWN <= x < GAP else x for x in self.garden)
        pending = self.pending
        if pending is not None and seat != self.to_move:
            pending = (pending[0], pending[1], UNKNOWN)
        received = passed_on = None
        if self.received is not None:
            received = tuple(
                x if s == seat or x is None else (UNKNOWN,) * len(x)
                for s, x in enumerate(self.received)
            )
            passed_on = tuple(
                x if s == seat or x is None else (UNKNOWN,) * len(x)
                for s, x in enumerate(self.passed_on)
            )
        return View(
            seat=seat,
            options=self.options,
            garden=garden,
            visitors=self.visitors,
            unplaced=self.unplaced,
            hand=None if seat is None else self.hands[seat],
            to_move=self.to_move,
            phase=self.phase,
            removed_type=self.removed_type,
            first_player=self.first_player,
            received=received,
            passed_on=passed_on,
            pending=pending,
        )


class View(_Frozen):
    """What one seat (or a spectator, ``seat=None``) may know of a position.

    Face-down tiles are ``UNKNOWN`` in ``garden``; ``hand`` is the viewer's own hand (None for
    a spectator); in a draft, ``received``/``passed_on`` hold only the viewer's own tiles.
    ``pending`` is the state's (position, cell, taken tile) with the tile ``UNKNOWN`` for all
    but the taker.
    """

    __slots__ = (
        "first_player",
        "garden",
        "hand",
        "options",
        "passed_on",
        "pending",
        "phase",
        "received",
        "removed_type",
        "seat",
        "to_move",
        "unplaced",
        "visitors",
    )

    seat: int | None
    options: Options
    garden: tuple[int, ...]
    visitors: tuple[int, ...]
    unplaced: tuple[int, ...]
    hand: tuple[int, ...] | None
    to_move: int
    phase: str
    removed_type: int | None
    first_player: int
    received: tuple | None
    passed_on: tuple | None
    pending: tuple[int, int, int] | None

    def __init__(self, **values):
        for name in View.__slots__:
            _set(self, name, values[name])

    def _key(self):
        return tuple(getattr(self, name) for name in View.__slots__)

    def __reduce__(self):
        # Immutable slots defeat pickle's default; a bot thinking in another process
        # receives the view, never the state behind it.
        return (_view_from_key, (self._key(),))

    def __repr__(self):
        return f"<topiary.View seat={self.seat} {self.to_json()}>"

    def _turn_to_choose(self) -> bool:
        """The viewer is to move in play with no take pending: a whole turn to choose."""
        return (
            self.seat is not None
            and self.seat == self.to_move
            and self.phase == "play"
            and self.pending is None
        )

    def _turn_lines(self) -> tuple:
        """(face-down cells, visitors, positions in play, must_pick): what a play turn's
        choices are made from."""
        return (
            _face_down_mask(self.garden),
            self.visitors,
            self.options.positions,
            self.options.must_pick,
        )

    def move_codes(self) -> list[int]:
        """The viewer's legal move codes when the viewer is to move, else [].

        With a take pending, the plant steps."""
        if self.seat is None or self.seat != self.to_move:
            return []
        if self.pending is not None:
            return _plant_codes(self.hand, self.pending[2])
        if self.phase == "play":
            return _play_codes(
                _face_down_mask(self.garden),
                self.visitors,
                self.hand,
                self.options.positions,
                self.options.must_pick,
            )
        if self.phase == "draft":
            return _keep_codes(tuple(sorted(self.hand + self.received[self.seat])))
        return []

    def legal_moves(self) -> list[str]:
        """The viewer's legal moves in notation when the viewer is to move, else []."""
        if self._turn_to_choose():
            return _turn_names(*self._turn_lines(), self.hand)
        return sorted(map(move_name, self.move_codes()))

    def step_codes(self) -> list[int]:
        """The viewer's next decisions as codes when to move (unsorted), else []."""
        if self._turn_to_choose():
            return _step_codes(*self._turn_lines())
        return self.move_codes()

    def legal_steps(self) -> list[str]:
        """As ``State.legal_steps``, for the viewer when to move, else []."""
        if self._turn_to_choose():
            return _turn_names(*self._turn_lines())
        return sorted(map(move_name, self.step_codes()))

    def sight_lines(self, free: bool = False) -> list[dict]:
        """As ``State.sight_lines``: what each visitor sees is public (face-up tiles only)."""
        return _sight_lines(self.garden, self.visitors, _free_positions(self, free))

    def public_score(self) -> dict:
        """The score as the viewer can know it now.

        Every seat's ``visitors`` and ``bonus``; ``hand`` only for the viewer's own seat
        (None elsewhere), and ``total`` is what is known: visitors + bonus (+ hand if known).
        No winners: they depend on hands the viewer cannot see.
        """
        hands = [self.hand if s == self.seat else None for s in range(self.players)]
        seen, bonus, hand = _score_parts(self.garden, self.visitors, hands, self.players)
        return {
            "scores": [
                {
                    "seat": s,
                    "visitors": seen[s],
                    "bonus": bonus[s],
                    "hand": hand[s],
                    "total": seen[s] + bonus[s] + (hand[s] or 0),
                }
                for s in range(self.players)
            ]
        }

    def known_pool(self) -> tuple[int, ...] | None:
        """In a draft, the tiles passed to the mover if the viewer knows them, else None.

        The viewer knows them when it is the mover, or when it passed them itself.
        """
        if self.phase != "draft" or self.seat is None:
            return None
        if self.to_move == self.seat:
            return self.received[self.seat]
        if self.passed_on[self.seat] is not None and (self.seat - 1) % self.players == self.to_move:
            return self.passed_on[self.seat]
        return None

    def unseen_tiles(self) -> tuple[int, ...]:
        """Tiles whose place the viewer does not know (face down, other hands, box, in flight)."""
        known = {x for x in self.garden if x < FACE_DOWN}
        known.update(self.hand or ())
        known.update(self.known_pool() or ())
        return tuple(t for t in self.options.game_tiles(self.removed_type) if t not in known)

    def to_json(self) -> dict:
        """NOTATION.md's position JSON with ``?`` for what the viewer may not know."""
        hands = [
            [TILE_NAMES[t] for t in self.hand] if s == self.seat else ["?"] * self._hand_size(s)
            for s in range(self.players)
        ]
        data = _position_json(
            self.options,
            self.removed_type,
            self.garden,
            self.visitors,
            self.unplaced,
            hands,
            self.to_move,
            self.phase,
            self.first_player,
        )
        data["seat"] = self.seat
        if self.received is not None:
            data["draft"] = {
                "received": [_tiles_json(x) for x in self.received],
                "passed_on": [_tiles_json(x) for x in self.passed_on],
            }
        if self.pending is not None:
            data["pending"] = _pending_json(self.pending)
        return data

    def _hand_size(self, seat: int) -> int:
        """Tiles in ``seat``'s hand: 4 for a taker whose plant is pending, else 3."""
        return HAND_SIZE + (self.pending is not None and seat == self.to_move)


def _pending_json(pending: tuple[int, int, int]) -> dict:
    p, cell, took = pending
    return {
        "position": POSITIONS[p],
        "cell": CELLS[cell],
        "took": "?" if took >= UNKNOWN else TILE_NAMES[took],
    }


def _view_from_key(key: tuple) -> View:
    return View(**dict(zip(View.__slots__, key, strict=True)))


def _tiles_json(tiles: tuple[int, ...] | None) -> list[str] | None:
    if tiles is None:
        return None
    return ["?" if t >= UNKNOWN else TILE_NAMES[t] for t in tiles]


def _position_json(
    options, removed_type, garden, visitors, unplaced, hands, to_move, phase, first_player
) -> dict:
    return {
        "game": NAME,
        "options": options.to_json(),
        "removed_type": None if removed_type is None else TYPES[removed_type],
        "garden": [
            [_cell_text(garden[JSON_ORDER[row * 5 + col]]) for col in range(5)] for row in range(5)
        ],
        "visitors": {POSITIONS[p]: seat for p, seat in enumerate(visitors) if seat >= 0},
        "unplaced": list(unplaced),
        "hands": hands,
        "to_move": to_move,
        "phase": phase,
        "first_player": first_player,
    }


class Dealer:
    """Deals the tiles a view cannot place at random, consistently with everything it knows.

    The one dealer of hidden tiles: ``sample_state`` builds a ``State`` from a deal and
    ``engine.fastplay.Dealer`` a scratch ``Table`` (the bots' determinizations). A deal fills
    *slots*, in this order: the face-down cells; the taken tile of a pending take the viewer
    did not make (it was face down); 3 per other seat, in seat order; in a draft, the pool in
    flight when the viewer does not know it; the box. Unseen tiles are exchangeable for the
    viewer, except the tiles the viewer passed on in a draft: the garden was dealt before the
    draft, and passes go to the previous seat in turn order, so they can only be in the hands
    of seats earlier in turn order that have drafted, in flight, or in the box. They are
    dealt among those slots first, uniformly, then the rest uniformly.
    """

    def __init__(self, view: View):
        self.view = view
        seat, players = view.seat, view.players
        self.unseen = list(view.unseen_tiles())
        self.down_cells = [c for c in range(25) if view.garden[c] == UNKNOWN]
        self.others = [s for s in range(players) if s != seat]
        self.took_unknown = view.pending is not None and view.pending[2] == UNKNOWN
        in_flight = view.phase == "draft" and view.known_pool() is None
        self.pool_size = len(view.received[view.to_move]) if in_flight else 0
        passed = () if seat is None or view.passed_on is None else view.passed_on[seat] or ()
        self.passed = [t for t in self.unseen if t in passed]
        self.passed_slots: list[int] = []
        if self.passed:
            order = _turn_order(view.first_player, players)
            drafted = {s for s in order[: order.index(seat)] if view.passed_on[s] is not None}
            first_hand = len(self.down_cells) + self.took_unknown
            self.passed_slots = [
                first_hand + HAND_SIZE * i + k
                for i, s in enumerate(self.others)
                if s in drafted
                for k in range(HAND_SIZE)
            ] + list(range(first_hand + HAND_SIZE * len(self.others), len(self.unseen)))

    def tiles(self, rng) -> list[int]:
        """The unseen tiles in slot order, dealt with ``rng`` (``random.Random`` or ``Rng``)."""
        if self.passed:
            slots = self.passed_slots[:]
            rng.shuffle(slots)
            order: list[int | None] = [None] * len(self.unseen)
            for tile, slot in zip(self.passed, slots, strict=False):
                order[slot] = tile
            rest = [t for t in self.unseen if t not in self.passed]
            rng.shuffle(rest)
            it = iter(rest)
            return [next(it) if t is None else t for t in order]
        # A sort on random keys is a uniform shuffle, and several times faster here.
        return sorted(self.unseen, key=lambda _: rng.random())

    def state(self, rng) -> State:
        """A full state behind the view, its hidden tiles dealt with ``rng``.

        Other seats' draft history, which nobody but they know, is filled with arbitrary
        tiles of the right count; the state has the same view, without always being a history
        the draft could have made.
        """
        view = self.view
        seat, players = view.seat, view.players
        tiles = self.tiles(rng)
        garden = list(view.garden)
        for cell, tile in zip(self.down_cells, tiles, strict=False):
            garden[cell] = tile + FACE_DOWN
        at = len(self.down_cells)
        pending, took = view.pending, None
        if self.took_unknown:
            took, at = tiles[at], at + 1
            pending = (pending[0], pending[1], took)
        hands: list = [view.hand] * players
        for s in self.others:
            extra = (took,) if took is not None and s == view.to_move else ()
            hands[s] = tuple(sorted((*tiles[at : at + HAND_SIZE], *extra)))
            at += HAND_SIZE
        pool = view.known_pool()
        if self.pool_size:
            pool, at = tuple(sorted(tiles[at : at + self.pool_size])), at + self.pool_size
        received = passed_on = None
        if view.received is not None:
            arbitrary = sorted(self.unseen)

            def history(entries, s):
                if s == seat or entries[s] is None:
                    return entries[s]
                if view.phase == "draft" and s == view.to_move and entries is view.received:
                    return pool
                return tuple(arbitrary[: len(entries[s])])

            received = tuple(history(view.received, s) for s in range(players))
            passed_on = tuple(history(view.passed_on, s) for s in range(players))
        return State(
            options=view.options,
            garden=tuple(garden),
            visitors=view.visitors,
            unplaced=view.unplaced,
            hands=tuple(hands),
            box=tuple(sorted(tiles[at:])),
            to_move=view.to_move,
            phase=view.phase,
            removed_type=view.removed_type,
            first_player=view.first_player,
            received=received,
            passed_on=passed_on,
            face_down=_face_down_mask(garden),
            pending=pending,
        )


def sample_state(view: View, rng: Rng) -> State:
    """A full state ``view`` could be the view of, its hidden tiles dealt at random by
    ``Dealer`` (for bots searching determinizations, and tests)."""
    return Dealer(view).state(rng)


# --------------------------------------------------------------------------- setup


def new_game(
    options: Options,
    seed: int | str | bytes,
    *,
    removed_type: str | None = None,
    first_player: int | None = None,
) -> State:
    """The seeded deal of the module docstring."""
    if not isinstance(options, Options):
        raise NotationError(code="options_not_options", value=options)
    players = options.players
    rng = Rng(seed)
    drawn_type = rng.randbelow(8)
    drawn_first = rng.randbelow(players)
    if players == 4:
        if removed_type is not None:
            raise NotationError(code="removed_type_with_four")
        removed = None
    elif removed_type is None:
        removed = drawn_type
    else:
        _require(
            isinstance(removed_type, str) and len(removed_type) == 1 and removed_type in TYPES,
            "removed_type_not_type",
            value=removed_type,
            types=TYPES,
        )
        removed = TYPES.index(removed_type)
    first = drawn_first if first_player is None else _seat(first_player, "first_player", players)
    tiles = list(options.game_tiles(removed))
    rng.shuffle(tiles)
    garden = [0] * 25
    for i, cell in enumerate(JSON_ORDER):
        garden[cell] = tiles[i] + FACE_DOWN
    garden[CENTRE] -= FACE_DOWN
    hands = tuple(
        tuple(sorted(tiles[25 + HAND_SIZE * s : 25 + HAND_SIZE * (s + 1)])) for s in range(players)
    )
    box = tuple(sorted(tiles[25 + HAND_SIZE * players :]))
    received = passed_on = None
    phase, to_move = "play", first
    if options.draft:
        last = (first - 1) % players
        received = tuple(box if s == last else None for s in range(players))
        passed_on = (None,) * players
        box = ()
        phase, to_move = "draft", last
    return State(
        options=options,
        garden=tuple(garden),
        visitors=(-1,) * len(POSITIONS),
        unplaced=(options.visitors_each,) * players,
        hands=hands,
        box=box,
        to_move=to_move,
        phase=phase,
        removed_type=removed,
        first_player=first,
        received=received,
        passed_on=passed_on,
        face_down=_face_down_mask(garden),
    )


# --------------------------------------------------------------------------- reading JSON

_POSITION_KEYS = {
    "game",
    "options",
    "removed_type",
    "garden",
    "visitors",
    "unplaced",
    "hands",
    "to_move",
    "phase",
    "first_player",
    "draft",
    "box",
    "pending",
}


def _tile_list(data: Any, where: str, length: int | None = None) -> tuple[int, ...]:
    _require(isinstance(data, list), "tiles_not_list", field=where, value=data)
    if length is not None:
        _require(len(data) == length, "tiles_count", field=where, length=length, count=len(data))
    return tuple(parse_tile(x, f"{where}[{i}]") for i, x in enumerate(data))


def _seat(data: Any, where: str, players: int) -> int:
    _require(
        type(data) is int and 0 <= data < players,
        "not_a_seat",
        field=where,
        value=data,
        last=players - 1,
    )
    return data


def state_from_json(data: Any) -> State:
    """A full position from NOTATION.md's JSON; NotationError naming the field if malformed."""
    _require(isinstance(data, dict), "position_not_object")
    unknown = sorted(set(data) - _POSITION_KEYS)
    if unknown:
        raise NotationError(code="position_unknown_field", field=unknown[0])
    _require(data.get("game") == NAME, "wrong_game", game=data.get("game"), expected=NAME)
    options = Options.from_json(data.get("options", {}))
    players = options.players
    for key in ("garden", "unplaced", "hands", "to_move", "phase"):
        _require(key in data, "position_missing_field", field=key)
    _require(
        players == 4 or "removed_type" in data, "position_missing_removed_type", players=players
    )

    removed_text = data.get("removed_type")
    if players == 4:
        _require(removed_text is None, "removed_type_not_null")
        removed = None
    else:
        _require(
            isinstance(removed_text, str) and len(removed_text) == 1 and removed_text in TYPES,
            "removed_type_invalid",
            value=removed_text,
            types=TYPES,
            players=players,
        )
        removed = TYPES.index(removed_text)

    rows = data.get("garden")
    _require(
        isinstance(rows, list)
        and len(rows) == 5
        and all(isinstance(r, list) and len(r) == 5 for r in rows),
        "garden_shape",
    )
    garden = [0] * 25
    for row in range(5):
        for col in range(5):
            cell = JSON_ORDER[row * 5 + col]
            garden[cell] = _parse_cell_tile(rows[row][col], f"garden {CELLS[cell]}")
    _require(garden[CENTRE] < FACE_DOWN, "centre_face_down")

    placed = data.get("visitors", {})
    _require(isinstance(placed, dict), "visitors_not_object")
    visitors = [-1] * len(POSITIONS)
    for name, seat in placed.items():
        p = POSITION_INDEX.get(name)
        _require(p is not None, "visitors_no_such_position", position=name)
        _require(p in options.positions, "visitors_not_in_play", position=name)
        visitors[p] = _seat(seat, f"visitors.{name}", players)

    unplaced = data.get("unplaced")
    _require(
        isinstance(unplaced, list) and len(unplaced) == players,
        "unplaced_not_list",
        players=players,
    )
    for s, count in enumerate(unplaced):
        quota = options.visitors_each
        _require(
            type(count) is int and 0 <= count <= quota,
            "unplaced_count",
            seat=s,
            count=count,
            quota=quota,
        )
        on_board = visitors.count(s)
        _require(
            on_board + count == quota,
            "unplaced_sum",
            seat=s,
            placed=on_board,
            count=count,
            quota=quota,
        )

    phase = data.get("phase")
    _require(phase in PHASES, "phase_unknown", phase=phase)
    to_move = _seat(data.get("to_move"), "to_move", players)
    pending = _pending_from_json(data.get("pending"), garden, visitors, to_move, options)
    _require(pending is None or phase == "play", "pending_outside_play", phase=phase)

    hands_data = data.get("hands")
    _require(
        isinstance(hands_data, list) and len(hands_data) == players,
        "hands_count",
        players=players,
    )
    hands = tuple(
        tuple(
            sorted(
                _tile_list(
                    h,
                    f"hands[{s}]",
                    HAND_SIZE + (pending is not None and s == to_move),
                )
            )
        )
        for s, h in enumerate(hands_data)
    )
    if pending is not None:
        _require(
            pending[2] in hands[to_move],
            "pending_took_not_in_hand",
            tile=TILE_NAMES[pending[2]],
            seat=to_move,
        )

    # A pending take's visitor is placed, but the turn is not over until the plant.
    unplaced_at_turn = list(unplaced)
    if pending is not None:
        unplaced_at_turn[to_move] += 1
    all_placed = not any(unplaced_at_turn)
    if phase == "over":
        _require(all_placed, "over_with_unplaced")
    else:
        _require(not all_placed, "all_placed_not_over", phase=phase)
    if phase == "play":
        _require(unplaced_at_turn[to_move] > 0, "to_move_no_visitors", seat=to_move)

    received = passed_on = None
    pool: tuple[int, ...] = ()
    if options.draft:
        received, passed_on = _draft_from_json(data.get("draft"), players)
        if phase == "draft":
            _require(
                received[to_move] is not None,
                "draft_nothing_received",
                seat=to_move,
            )
            _require(all(v < 0 for v in visitors), "visitors_in_draft")
            pool = received[to_move]
    else:
        _require("draft" not in data, "draft_without_option")
        _require(phase != "draft", "draft_phase_without_option")

    if "first_player" in data:
        first = _seat(data["first_player"], "first_player", players)
    elif phase == "draft":
        # The draft runs backwards from the seat before the first player, one keep per seat.
        kept = sum(x is not None for x in passed_on)
        first = (to_move + 1 + kept) % players
    else:
        first = _derived_first_player(options, unplaced_at_turn, to_move)

    seen: dict[int, str] = {}
    for cell in range(25):
        if garden[cell] != GAP:
            _claim(seen, garden[cell] % FACE_DOWN, f"garden {CELLS[cell]}")
    for s, hand in enumerate(hands):
        for tile in hand:
            _claim(seen, tile, f"hands[{s}]")
    for tile in pool:
        _claim(seen, tile, f"draft.received[{to_move}]")
    for tile, where in seen.items():
        _require(
            TILE_TYPE[tile] != removed,
            "tile_of_removed_type",
            field=where,
            tile=TILE_NAMES[tile],
            type=TYPES[removed or 0],
        )
    box = tuple(t for t in options.game_tiles(removed) if t not in seen)
    if "box" in data:
        given = tuple(sorted(_tile_list(data["box"], "box")))
        _require(
            given == box,
            "box_mismatch",
            box=[TILE_NAMES[t] for t in box],
        )
    return State(
        options=options,
        garden=tuple(garden),
        visitors=tuple(visitors),
        unplaced=tuple(unplaced),
        hands=hands,
        box=box,
        to_move=to_move,
        phase=phase,
        removed_type=removed,
        first_player=first,
        received=received,
        passed_on=passed_on,
        face_down=_face_down_mask(garden),
        pending=pending,
    )


def _pending_from_json(
    data: Any, garden: list[int], visitors: list[int], to_move: int, options: Options
) -> tuple[int, int, int] | None:
    """A position's ``pending`` take; the gap (``.``) must be its cell and nowhere else."""
    gaps = [CELLS[c] for c in range(25) if garden[c] == GAP]
    if data is None:
        if gaps:
            raise NotationError(code="gap_without_pending", cell=gaps[0])
        return None
    _require(
        isinstance(data, dict) and set(data) == {"position", "cell", "took"},
        "pending_not_object",
    )
    p = POSITION_INDEX.get(data["position"])
    _require(p is not None, "pending_no_such_position", position=data["position"])
    _require(p in options.positions, "pending_not_in_play", position=POSITIONS[p])
    _require(
        visitors[p] == to_move,
        "pending_visitor_not_movers",
        position=POSITIONS[p],
        seat=to_move,
    )
    cell = CELL_INDEX.get(data["cell"]) if isinstance(data["cell"], str) else None
    _require(
        cell is not None and cell in LINES[p],
        "pending_cell_not_in_line",
        cell=data["cell"],
        position=POSITIONS[p],
    )
    if not gaps:
        raise NotationError(code="pending_gap_missing", cell=CELLS[cell])
    _require(gaps == [CELLS[cell]], "pending_gap_elsewhere", cell=CELLS[cell], gaps=gaps)
    return p, cell, parse_tile(data["took"], "pending.took")


def state_from_view_json(data: Any) -> tuple[State, frozenset[int]]:
    """A position that may show ``?`` (a viewer's), completed so it can be scored or moved from.

    NOTATION.md lets a position be "one player's view": ``?`` for face-down identities the
    viewer does not know and for other players' hands. Face-down tiles count 0 and never
    block, and the move list needs only where they lie and the mover's hand, so each ``?`` is
    filled with an unseen tile (in tile order) and the answer does not depend on the choice.
    Also returns the seats whose hands were unknown, for callers that need a hand.
    """
    _require(isinstance(data, dict), "position_not_object")
    rows, hands, pending = data.get("garden"), data.get("hands"), data.get("pending")
    draft = data.get("draft") if isinstance(data.get("draft"), dict) else {}
    pools = [
        pool
        for name in ("received", "passed_on")
        if isinstance(draft.get(name), list)
        for pool in draft[name]
    ]
    # Only the pool the drafting mover picks from must hold tiles found nowhere else.
    received = draft.get("received")
    mover = data.get("to_move")
    drafting = data.get("phase") == "draft" and _is_seat_of(mover, received)
    mover_pool = received[mover] if drafting else None
    took_unknown = isinstance(pending, dict) and pending.get("took") == "?"
    if not (_has_unknown(rows) or _has_unknown(hands) or _has_unknown(pools) or took_unknown):
        return state_from_json(data), frozenset()
    _require("box" not in data, "box_with_unknowns")
    options = Options.from_json(data.get("options", {}))
    removed = data.get("removed_type")
    removed_type = TYPES.index(removed) if isinstance(removed, str) and removed in TYPES else None
    named = {
        text[:1].upper() + text[1:]
        for text in _json_texts(rows) + _json_texts(hands) + _json_texts([mover_pool])
        if isinstance(text, str) and text != "?"
    }
    unseen = iter(
        TILE_NAMES[t] for t in options.game_tiles(removed_type) if TILE_NAMES[t] not in named
    )

    def fill(text: Any, face_down: bool) -> Any:
        if text != "?":
            return text
        tile = next(unseen, None)
        _require(tile is not None, "too_many_unknowns")
        return tile.lower() if face_down else tile

    completed = dict(data)
    if isinstance(rows, list):
        completed["garden"] = [
            [fill(cell, True) for cell in row] if isinstance(row, list) else row for row in rows
        ]
    unknown_hands = frozenset()
    if isinstance(hands, list):
        unknown_hands = frozenset(
            s for s, hand in enumerate(hands) if isinstance(hand, list) and "?" in hand
        )
        completed["hands"] = [
            [fill(tile, False) for tile in hand] if isinstance(hand, list) else hand
            for hand in hands
        ]
    if pools:
        # The other pools are a record of what was passed (those tiles are in hands or the
        # garden by now): any tile of the game will do for their '?'.
        any_tile = itertools.cycle(TILE_NAMES[t] for t in options.game_tiles(removed_type))

        def fill_pool(pool: Any, own: bool) -> Any:
            if not isinstance(pool, list):
                return pool
            return [fill(t, False) if own else next(any_tile) if t == "?" else t for t in pool]

        completed["draft"] = {
            **draft,
            **{
                name: [fill_pool(pool, pool is mover_pool) for pool in draft[name]]
                for name in ("received", "passed_on")
                if isinstance(draft.get(name), list)
            },
        }
    if took_unknown:
        # Only a viewer who does not know the mover's hand sees '?' (the caller is told the
        # hand is unknown); any of its completed tiles will do.
        mover = data.get("to_move")
        hand = completed.get("hands")[mover] if _is_seat_of(mover, completed.get("hands")) else []
        _require(bool(hand), "pending_took_hand_unknown")
        completed["pending"] = {**pending, "took": hand[0]}
    return state_from_json(completed), unknown_hands


def _is_seat_of(seat: Any, hands: Any) -> bool:
    return type(seat) is int and isinstance(hands, list) and 0 <= seat < len(hands)


def _json_texts(rows: Any) -> list:
    if not isinstance(rows, list):
        return []
    return [x for row in rows if isinstance(row, list) for x in row]


def _has_unknown(rows: Any) -> bool:
    return "?" in _json_texts(rows)


def _claim(seen: dict[int, str], tile: int, where: str) -> None:
    _require(
        tile not in seen, "tile_twice", field=where, tile=TILE_NAMES[tile], other=seen.get(tile)
    )
    seen[tile] = where


def _derived_first_player(options: Options, unplaced, to_move: int) -> int:
    """The first player implied by who has placed one visitor more than the others.

    Seats that have placed more form the run of turn order that ends just before the mover.
    """
    placed = [options.visitors_each - u for u in unplaced]
    ahead = sum(1 for x in placed if x > min(placed))
    return (to_move - ahead) % options.players


def _draft_from_json(data: Any, players: int):
    _require(isinstance(data, dict), "draft_not_object")
    out = []
    for key in ("received", "passed_on"):
        lists = data.get(key)
        _require(
            isinstance(lists, list) and len(lists) == players,
            "draft_entries",
            key=key,
        )
        out.append(
            tuple(
                None if x is None else _tile_list(x, f"draft.{key}[{s}]")
                for s, x in enumerate(lists)
            )
        )
    return out[0], out[1]


# --------------------------------------------------------------------------- records


def make_record(initial: State, moves, *, seed: int | str | None, names) -> dict:
    """The game record (NOTATION.md) of ``moves`` played from ``initial``; see engine.records."""
    return records.make_record(sys.modules[__name__], initial, moves, seed=seed, names=names)


def _check_deal(initial: State, seed) -> RecordError | None:
    removed = None if initial.removed_type is None else TYPES[initial.removed_type]
    dealt = new_game(initial.options, seed, removed_type=removed, first_player=initial.first_player)
    return None if dealt == initial else RecordError(code="not_seed_deal", seed=seed)


def replay(record: Any) -> list[State]:
    """Every state of a game record, deal first; RecordError(ply, reason) if it does not replay."""
    return records.replay(sys.modules[__name__], record, _check_deal)


# --------------------------------------------------------------------------- search


def perft(state: State, depth: int) -> int:
    """Leaf count of the full move tree to ``depth`` (bulk-counted at depth 1, as chess does)."""
    if depth <= 0:
        return 1
    codes = state.move_codes()
    if depth == 1:
        return len(codes)
    apply_code = state.apply_code
    return sum(perft(apply_code(code), depth - 1) for code in codes)


# --------------------------------------------------------------------------- the game


def _is_take_step(move: str) -> bool:
    """A take step (``c5:S c4``): a position and a cell, no plant; its plant is the next ply."""
    return len(move.split(" ")) == 2 and "=" not in move


def _rank_key(entry: dict, seat: int, first_player: int, options: dict) -> tuple:
    """Higher total, then more hand points, then (``tiebreak`` ``later``) later in turn order."""
    later = 0
    if options.get("tiebreak", "later") == "later":
        later = (seat - first_player) % options.get("players", 2)
    return (entry["total"], entry["hand"], later)


GAME = GameDefinition(
    name=NAME,
    title="Topiary",
    module=sys.modules[__name__],
    seats=(2, 4),
    seats_option="players",
    rank_key=_rank_key,
    rule_options=(
        RuleOption(
            "corner_diagonals",
            "Corner diagonals",
            "visitors may stand at the 8 one-tile corner diagonals.",
            default=True,
        ),
        RuleOption(
            "must_pick",
            "Must take",
            "a visitor whose line holds a face-down tile must take one.",
        ),
        RuleOption("draft", "Draft the hands", "pass tiles round to choose hands."),
        RuleOption(
            "tiebreak",
            "Ties share the win",
            "no later-in-turn tie-break.",
            default="later",
            choices=TIEBREAKS,
            field="share_ties",
        ),
    ),
    score_columns=(
        ScoreColumn("visitors", "Visitors"),
        ScoreColumn("bonus", "Bonus"),
        ScoreColumn("hand", "Hand"),
    ),
    sight_lines=True,
    is_take_step=_is_take_step,
)
