"""The daily puzzle: the exact solver against brute force, the seeded generator, grading, CLI."""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

import pytest

from engine import puzzles, topiary
from engine.errors import EngineError, IllegalMove, NotationError
from engine.rng import Rng
from tests.engine.cli import engine

GOLDEN = Path(__file__).resolve().parent / "golden"
#: A Sunday (K = 3), a Monday (K = 1) and a Wednesday (K = 2).
GOLDEN_DATES = ("2026-11-22", "2026-11-23", "2026-11-25")


def random_puzzle(seed: int, k: int, **options) -> topiary.State:
    """A puzzle position reached by random play: the seat to move keeps ``k`` visitors and
    every other seat places all of theirs."""
    rng = Rng(seed)
    state = topiary.new_game(topiary.Options(**options), seed)
    while state.unplaced[state.to_move] > k:
        state = state.apply_code(rng.choice(state.move_codes()))
    solver = state.to_move
    for other in range(state.players):
        while other != solver and state.unplaced[other]:
            state = puzzles._with_mover(state, other)
            state = state.apply_code(rng.choice(state.move_codes()))
    return puzzles._with_mover(state, solver)


def best_final(state: topiary.State, seat: int) -> int:
    """Brute force: the best final score over every sequence of legal moves."""
    if state.is_over:
        return state.totals()[seat]
    return max(best_final(state.apply_code(c), seat) for c in state.move_codes())


def brute_force(state: topiary.State) -> tuple[int, int, int]:
    """(optimum, optimal first moves, greedy) by enumerating every line with the rules."""
    seat = state.to_move
    values = [best_final(state.apply_code(c), seat) for c in state.move_codes()]
    optimum = max(values)
    greedy = state
    while not greedy.is_over:
        moves = sorted(greedy.move_codes(), key=topiary.move_name)
        greedy = max((greedy.apply_code(c) for c in moves), key=lambda s: s.totals()[seat])
    return optimum, values.count(optimum), greedy.totals()[seat]


@pytest.mark.parametrize(
    ("seed", "k", "options"),
    [
        (1, 1, {}),
        (2, 1, {"players": 3}),
        (3, 1, {"players": 4, "must_pick": True}),
        (4, 1, {"corner_diagonals": False}),
        (5, 2, {}),
        (6, 2, {"players": 3, "must_pick": True}),
        (45, 2, {"must_pick": True}),
    ],
)
def test_the_solver_agrees_with_brute_force(seed, k, options):
    state = random_puzzle(seed, k, **options)
    solution = puzzles.solve(state)
    optimum, first_moves, greedy = brute_force(state)
    assert solution.optimum == optimum
    assert solution.optimal_first_moves == first_moves
    assert solution.greedy == greedy
    assert len(solution.line) == k


def test_a_generated_k3_puzzle_has_a_line_that_reaches_its_optimum_and_beats_greedy_lines():
    state = puzzles.candidate_position(Rng(b"k3 test"), 3)
    solution = puzzles.solve(state)
    assert puzzles.grade(state.to_json(), list(solution.line)) == solution.optimum
    assert solution.greedy <= solution.optimum
    # The line's first move keeps the optimum in reach; no other first move beats it.
    assert puzzles.solve(state.apply(solution.line[0])).optimum == solution.optimum
    seat = state.to_move
    for code in state.move_codes()[:20]:
        after = state.apply_code(code)
        assert puzzles.solve(after).optimum <= solution.optimum
        assert after.to_move == seat


@pytest.mark.slow
def test_k3_optimal_first_moves_are_the_first_moves_whose_k2_remainder_keeps_the_optimum():
    # K = 2 is checked against brute force above; this lifts the check to K = 3.
    state = random_puzzle(31, 3)
    solution = puzzles.solve(state)
    keeping = [
        code
        for code in state.move_codes()
        if puzzles.solve(state.apply_code(code)).optimum == solution.optimum
    ]
    assert solution.optimal_first_moves == len(keeping)


def test_solve_refuses_a_position_where_others_still_have_visitors():
    state = topiary.new_game(topiary.Options(), 3)
    with pytest.raises(NotationError, match="only the seat to move"):
        puzzles.solve(state)


def test_the_daily_seed_is_sha256_of_the_prefix_and_iso_date():
    expected = hashlib.sha256(b"topiary-daily:2026-11-22").hexdigest()
    assert puzzles.daily_seed("2026-11-22").hex() == expected
    assert puzzles.daily_seed(datetime.date(2026, 11, 22)).hex() == expected


@pytest.mark.parametrize("date", GOLDEN_DATES)
def test_daily_puzzles_match_their_golden_files(date):
    golden = json.loads((GOLDEN / f"daily-{date}.json").read_text())
    assert puzzles.daily(date).to_json() == golden


@pytest.mark.parametrize("date", GOLDEN_DATES)
def test_a_daily_puzzle_is_a_good_puzzle_with_k_by_weekday(date):
    record = puzzles.daily(datetime.date.fromisoformat(date)).to_json()
    k = puzzles.K_BY_WEEKDAY[datetime.date.fromisoformat(date).weekday()]
    state = topiary.state_from_json(record["position"])
    assert record["k"] == k == state.unplaced[record["seat"]]
    assert state.to_move == record["seat"]
    assert all(n == 0 for s, n in enumerate(state.unplaced) if s != record["seat"])
    # Every identity is shown: a full state parses, and nothing reads "?".
    assert "?" not in json.dumps(record["position"]["garden"])
    assert puzzles.grade(record["position"], record["line"]) == record["optimum"]
    assert record["optimal_first_moves"] <= 2 * k
    if k >= 2:
        assert record["optimum"] - record["greedy"] >= 2
    assert 600 <= record["rating"] <= 2600


def test_daily_refuses_a_date_that_is_not_iso():
    with pytest.raises(NotationError, match="ISO date"):
        puzzles.daily("22/11/2026")


def test_grade_scores_a_line_and_names_what_is_wrong_with_a_bad_one():
    state = random_puzzle(11, 2)
    position = state.to_json()
    legal = state.legal_moves()
    first = legal[0]
    second = state.apply(first).legal_moves()[0]
    assert (
        puzzles.grade(position, [first, second])
        == state.apply(first).apply(second).totals()[state.to_move]
    )
    with pytest.raises(IllegalMove, match="exactly 2 moves"):
        puzzles.grade(position, [first])
    with pytest.raises(IllegalMove, match=r"move 2: .*occupied"):
        puzzles.grade(position, [first, first.split()[0]])
    with pytest.raises(EngineError, match=r"move 1: .*malformed"):
        puzzles.grade(position, ["zz:Q", second])
    with pytest.raises(NotationError, match="list of moves"):
        puzzles.grade(position, "c5:S")


def test_cli_solve_prints_exactly_the_four_fields(tmp_path):
    state = random_puzzle(5, 2)
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(state.to_json()))
    result = engine("topiary", "solve", str(path))
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert list(printed) == ["optimum", "line", "optimal_first_moves", "greedy"]
    assert printed == puzzles.solve(state).to_json()
    from_stdin = engine("topiary", "solve", stdin=json.dumps(state.to_json()))
    assert json.loads(from_stdin.stdout) == printed


def test_cli_solve_refuses_a_game_that_is_not_a_puzzle():
    position = topiary.new_game(topiary.Options(), 1).to_json()
    result = engine("topiary", "solve", stdin=json.dumps(position))
    assert result.returncode == 2
    assert "only the seat to move" in result.stderr


def test_cli_daily_prints_the_golden_puzzle_and_refuses_a_bad_date():
    result = engine("topiary", "daily", "2026-11-23")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads((GOLDEN / "daily-2026-11-23.json").read_text())
    bad = engine("topiary", "daily", "2026-02-30")
    assert bad.returncode == 2
    assert "ISO date" in bad.stderr
    wrong_game = engine("wizards-garden", "daily", "2026-11-23")
    assert wrong_game.returncode == 2
    assert "only for topiary" in wrong_game.stderr
