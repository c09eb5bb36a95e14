"""Three in a Row: a tiny third game, defined here to show what adding a game costs.

Two players take turns to put a mark in an empty cell of a 3x3 board (``a1`` .. ``c3``);
three of one's own marks in a row, column or diagonal win, a full board without a row is
a draw. Rule option ``centre_opening``: the first mark may go in the centre (``b2``);
without it, it may not. Nothing is hidden, so every view is the whole position.

It has the shape of the house's game modules (docs/ENGINE_API.md): ``NAME``, ``Options``,
``new_game``, ``state_from_json``, ``make_record``, ``replay``, ``move_seen_by``,
``State`` and ``View``, and it ends with its descriptor, ``GAME``. The tests register it
with ``engine.games.register(GAME)``; no Django app knows of it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Any

from engine import records
from engine.definition import GameDefinition, RuleOption, ScoreColumn
from engine.errors import IllegalMove, NotationError
from engine.rng import Rng

NAME = "three_in_a_row"
CELLS = tuple(f"{file}{rank}" for rank in "123" for file in "abc")
ROWS = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
CENTRE = CELLS.index("b2")
MARKS = "XO"
EMPTY = "."


@dataclass(frozen=True, slots=True)
class Options:
    centre_opening: bool = True

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise NotationError(f"options: expected an object, got {data!r}")
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise NotationError(f"options: unknown option {unknown[0]!r}")
        if not isinstance(data.get("centre_opening", True), bool):
            raise NotationError("options.centre_opening: expected true or false")
        return cls(**data)

    def to_json(self) -> dict:
        return {"centre_opening": self.centre_opening}


def _line_of(board: tuple[int, ...]) -> int | None:
    """The seat with three in a row, if any."""
    for a, b, c in ROWS:
        if board[a] >= 0 and board[a] == board[b] == board[c]:
            return board[a]
    return None


@dataclass(frozen=True, slots=True)
class State:
    board: tuple[int, ...]  # per cell: -1 empty, else the seat whose mark it is
    to_move: int
    first_player: int
    options: Options

    players = 2
    pending_step = None

    @property
    def phase(self) -> str:
        return "over" if _line_of(self.board) is not None or -1 not in self.board else "play"

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_moves(self) -> list[str]:
        if self.is_over:
            return []
        opening = all(mark < 0 for mark in self.board)
        return sorted(
            CELLS[i]
            for i, mark in enumerate(self.board)
            if mark < 0 and not (opening and i == CENTRE and not self.options.centre_opening)
        )

    def legal_steps(self) -> list[str]:
        return self.legal_moves()

    def took(self, move: str) -> None:
        return None

    def apply(self, move: str, seat: int | None = None) -> State:
        if seat is not None and seat != self.to_move:
            raise IllegalMove(f"seat {seat} is not to move")
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r} is not an empty cell here (a1..c3)")
        board = list(self.board)
        board[CELLS.index(move)] = self.to_move
        return State(tuple(board), 1 - self.to_move, self.first_player, self.options)

    def score(self) -> dict:
        winner = _line_of(self.board)
        scores = [
            {"seat": seat, "marks": self.board.count(seat), "total": int(winner == seat)}
            for seat in (0, 1)
        ]
        winners = [winner] if winner is not None else ([0, 1] if self.is_over else [])
        return {"scores": scores, "winners": winners}

    def to_json(self) -> dict:
        return {
            "game": NAME,
            "options": self.options.to_json(),
            "board": "".join(EMPTY if m < 0 else MARKS[m] for m in self.board),
            "to_move": self.to_move,
            "first_player": self.first_player,
            "phase": self.phase,
            # What the site's generic board draws (static/board/generic.js): each cell's mark.
            "cells": {
                cell: "" if m < 0 else MARKS[m] for cell, m in zip(CELLS, self.board, strict=True)
            },
        }

    def view(self, seat: int) -> View:
        return View(self, seat)

    def spectator_view(self) -> View:
        return View(self, None)


@dataclass(frozen=True, slots=True)
class View:
    """What a seat (or a spectator) knows: everything, the game hides nothing."""

    _state: State
    seat: int | None

    players = 2
    pending_step = None

    @property
    def to_move(self) -> int:
        return self._state.to_move

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    def legal_moves(self) -> list[str]:
        return self._state.legal_moves() if self.seat == self.to_move else []

    def legal_steps(self) -> list[str]:
        return self.legal_moves()

    def to_json(self) -> dict:
        return self._state.to_json()

    def public_score(self) -> dict:
        return self._state.score()


def move_seen_by(move: str, *, mover: int, viewer: int | None, took: str | None, over: bool) -> str:
    return move


def new_game(
    options: Options | None = None, seed: int | str | bytes = 0, first_player: int | None = None
) -> State:
    if first_player is None:
        first_player = Rng(seed).randbelow(2)
    return State((-1,) * 9, first_player, first_player, options or Options())


def state_from_json(data: Any) -> State:
    try:
        board = tuple(-1 if c == EMPTY else MARKS.index(c) for c in data["board"])
        options = Options.from_json(data.get("options", {}))
        state = State(board, data["to_move"], data["first_player"], options)
    except (KeyError, TypeError, ValueError) as error:
        raise NotationError(f"not a Three in a Row position: {error}") from None
    if len(board) != 9 or state.to_move not in (0, 1):
        raise NotationError("not a Three in a Row position: 9 cells and a seat to move")
    return state


def make_record(initial: State, moves, *, seed, names) -> dict:
    return records.make_record(sys.modules[__name__], initial, moves, seed=seed, names=names)


def replay(record: Any) -> list[State]:
    return records.replay(sys.modules[__name__], record)


def _rank_key(entry: dict, seat: int, first_player: int, options: dict) -> tuple:
    """The row makes the winner; the engine's winners already say so."""
    return (entry["total"],)


GAME = GameDefinition(
    name=NAME,
    title="Three in a Row",
    module=sys.modules[__name__],
    seats=(2, 2),
    rank_key=_rank_key,
    rule_options=(
        RuleOption("centre_opening", "Centre opening", "the first mark may go in b2.", True),
    ),
    score_columns=(ScoreColumn("marks", "Marks"),),
)
