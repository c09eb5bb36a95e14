"""A Wizards' Garden position from NOTATION.md's JSON, checked field by field and for being
reachable in a game (``state_from_json``)."""

from __future__ import annotations

from typing import Any

from engine.errors import NotationError
from engine.wizards_garden.rules import (
    _CELL_INDEX,
    BLACK,
    CELLS,
    EMPTY,
    FILES,
    LINE_NAMES,
    NAME,
    OVER,
    PLAY,
    SEEDS,
    SETUP,
    SETUP_SEEDS,
    WHITE,
    Options,
    State,
    _bits,
    _full_lines,
    _spread,
)

_POSITION_FIELDS = ("game", "board", "basket", "harvested", "staff", "to_move", "phase")


def _int_field(data: dict, name: str, low: int, high: int) -> int:
    value = data[name]
    if type(value) is not int or not low <= value <= high:
        raise NotationError(code="wg_field_number", field=name, low=low, high=high, value=value)
    return value


def _parse_board(board: Any) -> tuple[int, int]:
    """The (white, black) masks of a board given rank 4 first, file a first."""
    if not isinstance(board, list) or len(board) != 4:
        raise NotationError(code="wg_board_shape")
    white = black = 0
    for row_index, row in enumerate(board):
        rank = 4 - row_index
        if not isinstance(row, list) or len(row) != 4:
            raise NotationError(code="wg_board_row", row=row_index + 1, rank=rank)
        for file, value in enumerate(row):
            name = f"{FILES[file]}{rank}"
            bit = 1 << _CELL_INDEX[name]
            if value == WHITE:
                white |= bit
            elif value == BLACK:
                black |= bit
            elif value != EMPTY:
                raise NotationError(code="wg_board_cell", cell=name, value=value)
    return white, black


def _parse_harvested(harvested: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    if not isinstance(harvested, list) or len(harvested) != 2:
        raise NotationError(code="wg_harvested_shape")
    seats = []
    for seat, flowers in enumerate(harvested):
        if not isinstance(flowers, dict) or set(flowers) != {WHITE, BLACK}:
            raise NotationError(code="wg_harvested_seat", seat=seat)
        for side in (WHITE, BLACK):
            count = flowers[side]
            if type(count) is not int or not 0 <= count <= SEEDS:
                raise NotationError(
                    code="wg_harvested_count", seat=seat, side=side, seeds=SEEDS, value=count
                )
        seats.append((flowers[WHITE], flowers[BLACK]))
    return seats[0], seats[1]


def state_from_json(data: Any) -> State:
    """A full position from NOTATION.md's JSON; ``NotationError`` names what is wrong.

    Besides the form, the position must be one the rules can reach: 20 seeds
    in all, the staff with a black flower's harvester, no unharvested line, and
    a phase that fits the board.
    """
    if not isinstance(data, dict):
        raise NotationError(code="wg_position_not_object")
    missing = [name for name in _POSITION_FIELDS if name not in data]
    if missing:
        raise NotationError(code="wg_position_missing_field", field=missing[0])
    unknown = sorted(set(data) - {*_POSITION_FIELDS, "options"})
    if unknown:
        raise NotationError(code="wg_position_unknown_field", field=unknown[0])
    if data["game"] != NAME:
        raise NotationError(code="wg_wrong_game", expected=NAME, game=data["game"])
    options = Options.from_json(data.get("options"))
    white, black = _parse_board(data["board"])
    basket = _int_field(data, "basket", 0, SEEDS)
    harvested = _parse_harvested(data["harvested"])
    staff = data["staff"]
    if staff is not None and (type(staff) is not int or staff not in (0, 1)):
        raise NotationError(code="wg_staff_value", value=staff)
    to_move = _int_field(data, "to_move", 0, 1)
    phase = data["phase"]
    if phase not in (SETUP, PLAY, OVER):
        raise NotationError(code="wg_phase_unknown", value=phase)
    state = State(white, black, basket, harvested, staff, to_move, phase, options)
    _check_reachable(state)
    return state


def _check_reachable(state: State) -> None:
    """Refuse a well-formed position that the rules cannot produce."""
    on_board = state.occupied.bit_count()
    flowers = sum(w + b for w, b in state.harvested)
    if on_board + state.basket + flowers != SEEDS:
        raise NotationError(
            code="wg_seed_count",
            seeds=SEEDS,
            board=on_board,
            basket=state.basket,
            flowers=flowers,
            total=on_board + state.basket + flowers,
        )
    black_flowers = sum(b for _, b in state.harvested)
    if state.staff is None and black_flowers:
        raise NotationError(code="wg_staff_missing")
    if state.staff is not None and not state.harvested[state.staff][1]:
        raise NotationError(code="wg_staff_without_flower", seat=state.staff)
    full = _full_lines(state.white, state.black)
    if full:
        raise NotationError(code="wg_unharvested_line", line=LINE_NAMES[next(_bits(full))])
    if state.phase == SETUP:
        if flowers:
            raise NotationError(code="wg_setup_with_flowers")
        if on_board >= SETUP_SEEDS:
            raise NotationError(code="wg_setup_seed_count", count=on_board)
        if state.options.setup_apart and _spread(state.occupied) & state.occupied:
            near = next(_bits(_spread(state.occupied) & state.occupied))
            raise NotationError(code="wg_setup_apart_position", cell=CELLS[near])
        return
    if not flowers and on_board < SETUP_SEEDS:
        raise NotationError(code="wg_setup_unfinished", phase=state.phase, count=on_board)
    reason = state.end_reason()
    if state.phase == PLAY and reason is not None:
        raise NotationError(code="wg_play_but_over", end_reason=reason)
    if state.phase == OVER and reason is None:
        raise NotationError(code="wg_over_but_can_plant", seat=state.to_move)
