"""Daily puzzles for tests, made by the real engine through the puzzle app's own service."""

from __future__ import annotations

import datetime

import pytest

from engine import topiary
from puzzles import services
from puzzles.models import DailyPuzzle
from tests.support.players import create_player

#: Past dates whose puzzles the engine makes quickly: a Monday (K = 1) and a Wednesday (K = 2).
MONDAY = datetime.date(2026, 11, 16)
WEDNESDAY = datetime.date(2026, 11, 18)


def final_score(puzzle: DailyPuzzle, moves: list[str]) -> int:
    """The solver's score after ``moves``, played straight through the engine's rules."""
    state = topiary.state_from_json(puzzle.position)
    for move in moves:
        state = state.apply(move, puzzle.seat)
    return state.totals()[puzzle.seat]


def short_line(puzzle: DailyPuzzle) -> tuple[list[str], int]:
    """A legal line that falls short of the optimum, and its score."""
    state = topiary.state_from_json(puzzle.position)
    for first in state.legal_moves():
        line = [first]
        after = state.apply(first, puzzle.seat)
        while len(line) < puzzle.k:
            line.append(after.legal_moves()[0])
            after = after.apply(line[-1], puzzle.seat)
        score = after.totals()[puzzle.seat]
        if score < puzzle.optimum:
            return line, score
    raise AssertionError("every line is optimal")


def submission(puzzle: DailyPuzzle, moves: list[str]) -> dict:
    return {"seat": puzzle.seat, "moves": moves}


@pytest.fixture
def puzzle(db) -> DailyPuzzle:
    """The Wednesday puzzle (two visitors to place)."""
    return services.daily_puzzle_get_or_create(date=WEDNESDAY)


@pytest.fixture
def solver(django_user_model):
    return create_player("hedgehog")
