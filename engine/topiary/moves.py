"""Topiary's moves: their codes, their generation, and their notation.

A play move's code is ``(position * 26 + cell) * 41 + plant`` where ``position`` indexes
``POSITIONS``, ``cell`` is the taken cell's index (``NO_TAKE``: no take) and ``plant`` is
``0`` for ``*`` (or no take) and ``tile + 1`` for a hand tile; a draft move ``keep`` is
``-mask``, the bitmask of the three kept tiles. A take step's code is ``TAKE_STEP +
position * 26 + cell`` and a plant step's ``PLANT_STEP + plant``. A line's moves are built
once per hand and face-down pattern and reused.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from engine.errors import IllegalMove, NotationError
from engine.topiary.board import (
    CELL_INDEX,
    CELLS,
    HAND_SIZE,
    LINES,
    POSITION_INDEX,
    POSITIONS,
    TILE_INDEX,
    TILE_NAMES,
    _mask_tiles,
    parse_tile,
)

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
