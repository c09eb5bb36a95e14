"""Daily puzzles for tests, made by the real engine through the puzzle app's own service."""

from __future__ import annotations

import datetime

import pytest

from engine import topiary
from engine.rng import Rng
from games import services as games_services
from games.models import Game
from puzzles import services
from puzzles.models import DailyPuzzle
from tests.support.players import create_player
from tests.support.tables import CORRESPONDENCE

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


def played_game(users, move_seed: int) -> Game:
    """A Topiary game between ``users`` played to its end by seeded random legal moves."""
    game = games_services.game_create(
        kind="topiary", players=users, options={}, rated=True, **CORRESPONDENCE
    )
    rng = Rng(move_seed)
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        game = games_services.move_play(
            game_id=game.pk,
            user=users[state.to_move],
            ply=game.ply,
            move=rng.choice(state.legal_moves()),
        )
    games_services.game_score(game_id=game.pk)
    game.refresh_from_db()
    return game
