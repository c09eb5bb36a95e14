"""The daily puzzle's services: one stored puzzle per date, judging, rating and streaks."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from engine import puzzles as engine_puzzles
from puzzles import services
from puzzles.models import DailyPuzzle, PuzzleAttempt, PuzzleStreak
from ratings.models import PUZZLE, Rating, RatingChange
from tests.puzzles.conftest import MONDAY, WEDNESDAY, final_score, short_line, submission
from tests.support.players import create_player

pytestmark = pytest.mark.django_db


def test_a_date_always_yields_the_same_stored_puzzle():
    first = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    again = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    assert again.pk == first.pk
    assert DailyPuzzle.objects.filter(date=WEDNESDAY).count() == 1

    # Made afresh (another machine, a wiped database), it is the very same puzzle.
    stored = DailyPuzzle.objects.values().get(pk=first.pk)
    DailyPuzzle.objects.all().delete()
    remade = DailyPuzzle.objects.values().get(
        pk=services.daily_puzzle_get_or_create(date=WEDNESDAY).pk
    )
    ignored = {"id", "created_at"}
    assert {k: v for k, v in remade.items() if k not in ignored} == {
        k: v for k, v in stored.items() if k not in ignored
    }


def test_the_stored_puzzle_is_the_engines_puzzle_of_that_date(puzzle):
    record = engine_puzzles.daily(WEDNESDAY).to_json()
    assert puzzle.seed_hex == record["seed"]
    assert puzzle.position == record["position"]
    assert (puzzle.seat, puzzle.k, puzzle.optimum) == (record["seat"], 2, record["optimum"])
    assert puzzle.line == record["line"]
    assert puzzle.rating == record["rating"]
    assert puzzle.verify_command == "python -m engine topiary daily 2026-11-18"


def test_the_optimal_line_solves_the_puzzle(puzzle, solver):
    verdict = services.puzzle_attempt_submit(
        puzzle=puzzle, user=solver, submission=submission(puzzle, puzzle.line)
    )
    assert verdict.solved
    assert verdict.score == puzzle.optimum == final_score(puzzle, puzzle.line)
    assert verdict.line == puzzle.line


def test_a_wrong_answer_is_graded_as_not_solved(puzzle, solver):
    moves, score = short_line(puzzle)
    verdict = services.puzzle_attempt_submit(
        puzzle=puzzle, user=solver, submission=submission(puzzle, moves)
    )
    assert not verdict.solved
    assert verdict.score == score < puzzle.optimum
    assert verdict.line is None
    attempt = PuzzleAttempt.objects.get(user=solver)
    assert (attempt.solved, attempt.score, attempt.moves) == (False, score, moves)


def refusals(puzzle):
    """Forged, illegal and malformed submissions, each with words its refusal must say."""
    taken = next(iter(puzzle.position["visitors"]))
    return [
        ({"seat": 1 - puzzle.seat, "moves": puzzle.line}, "seat"),
        ({"moves": puzzle.line}, "seat"),
        ({"seat": puzzle.seat, "moves": [taken, *puzzle.line[1:]]}, "occupied"),
        ({"seat": puzzle.seat, "moves": [*puzzle.line, puzzle.line[-1]]}, "exactly 2 moves"),
        ({"seat": puzzle.seat, "moves": puzzle.line[:1]}, "exactly 2 moves"),
        ({"seat": puzzle.seat, "moves": []}, "exactly 2 moves"),
        ({"seat": puzzle.seat, "moves": ["z9:Q", "a1:N"]}, "z9:Q"),
        ({"seat": puzzle.seat, "moves": "a1:N a5:S"}, "list of moves"),
        ({"seat": puzzle.seat, "moves": [1, 2]}, "list of moves"),
        ({"seat": puzzle.seat, "moves": puzzle.line, "position": {}}, "Unknown field"),
        ([puzzle.line], "JSON object"),
    ]


def test_forged_illegal_or_malformed_submissions_are_refused_and_change_nothing(puzzle, solver):
    rating_before = puzzle.rating
    for forged, reason in refusals(puzzle):
        with pytest.raises(services.SubmissionRefused, match=reason):
            services.puzzle_attempt_submit(puzzle=puzzle, user=solver, submission=forged)
    puzzle.refresh_from_db()
    assert puzzle.rating == rating_before
    assert puzzle.rated_attempts == 0
    assert not PuzzleAttempt.objects.exists()
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(user=solver).exists()
    assert not PuzzleStreak.objects.exists()


def test_an_illegal_move_is_refused_with_the_engines_reason(puzzle, solver):
    # Planting a tile the solver does not hold.
    place = puzzle.line[0].split()[0]
    cell = next(
        f"{'abcde'[col]}{5 - row}"
        for row, cells in enumerate(puzzle.position["garden"])
        for col, text in enumerate(cells)
        if text.islower()
    )
    not_held = next(
        t
        for t in ("E5", "H5", "N5", "O5", "P5", "R5", "S5", "W5")
        if t not in puzzle.position["hands"][puzzle.seat]
    )
    with pytest.raises(services.SubmissionRefused, match="Move 1"):
        services.puzzle_attempt_submit(
            puzzle=puzzle,
            user=solver,
            submission=submission(puzzle, [f"{place} {cell}={not_held}", puzzle.line[1]]),
        )
    assert not PuzzleAttempt.objects.exists()


def test_the_first_attempt_is_rated_once_and_moves_both_ratings(puzzle, solver):
    moves, _ = short_line(puzzle)
    start = puzzle.rating
    failed = services.puzzle_attempt_submit(
        puzzle=puzzle, user=solver, submission=submission(puzzle, moves)
    )
    assert failed.rated and failed.rating_after < failed.rating_before == 1500
    puzzle.refresh_from_db()
    assert puzzle.rating > start and puzzle.rated_attempts == 1
    after_first = (puzzle.rating, Rating.objects.get(user=solver, kind=PUZZLE).value)

    # Solving it now, and again, moves neither rating: only the first attempt is rated.
    for _ in range(2):
        verdict = services.puzzle_attempt_submit(
            puzzle=puzzle, user=solver, submission=submission(puzzle, puzzle.line)
        )
        assert verdict.solved and not verdict.rated
    puzzle.refresh_from_db()
    rating = Rating.objects.get(user=solver, kind=PUZZLE)
    assert (puzzle.rating, rating.value) == after_first
    assert rating.games == 1
    assert RatingChange.objects.filter(user=solver).count() == 1
    attempts = PuzzleAttempt.objects.filter(user=solver)
    assert [a.rated for a in attempts] == [True, False, False]
    assert [a.solved for a in attempts] == [False, True, True]


def test_a_solve_against_a_stronger_puzzle_gains_more_than_against_a_weaker_one(db):
    # Elo, both ways: the puzzle's starting rating comes from its measured difficulty.
    easy = services.daily_puzzle_get_or_create(date=MONDAY)
    hard = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    assert easy.rating != hard.rating
    gains = {}
    for name, puzzle in (("easy", easy), ("hard", hard)):
        user = create_player(f"solver-{name}")
        verdict = services.puzzle_attempt_submit(
            puzzle=puzzle, user=user, submission=submission(puzzle, puzzle.line)
        )
        gains[puzzle.rating] = verdict.rating_after - verdict.rating_before
        start = puzzle.rating
        puzzle.refresh_from_db()
        assert puzzle.rating < start
    low, high = sorted(gains)
    assert gains[high] > gains[low] > 0


def test_giving_up_reveals_the_line_and_counts_as_a_rated_loss(puzzle, solver, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: WEDNESDAY)
    verdict = services.puzzle_give_up(puzzle=puzzle, user=solver)
    assert verdict.line == puzzle.line
    assert verdict.rated and verdict.rating_after < verdict.rating_before

    # Solving after seeing the answer is kept but rates nothing and starts no streak.
    after = services.puzzle_attempt_submit(
        puzzle=puzzle, user=solver, submission=submission(puzzle, puzzle.line)
    )
    assert after.solved and not after.rated and after.streak is None
    assert not PuzzleStreak.objects.filter(user=solver, current__gt=0).exists()
    assert RatingChange.objects.filter(user=solver).count() == 1


def test_the_streak_counts_each_days_puzzle_solved_that_day_once(solver, monkeypatch):
    days = [MONDAY + datetime.timedelta(days=n) for n in range(5)]
    made = {day: services.daily_puzzle_get_or_create(date=day) for day in days}

    def solve_on(today, day):
        monkeypatch.setattr("django.utils.timezone.localdate", lambda: today)
        puzzle = made[day]
        return services.puzzle_attempt_submit(
            puzzle=puzzle, user=solver, submission=submission(puzzle, puzzle.line)
        ).streak

    assert solve_on(days[0], days[0]) == 1
    assert solve_on(days[0], days[0]) == 1  # the same puzzle again: no move
    assert solve_on(days[1], days[1]) == 2
    # Day 2 goes unsolved; solving it later from the archive does not mend the streak.
    assert solve_on(days[3], days[3]) == 1
    assert solve_on(days[3], days[2]) == 1
    assert solve_on(days[4], days[4]) == 2
    streak = PuzzleStreak.objects.get(user=solver)
    assert (streak.current, streak.best, streak.last_solved) == (2, 2, days[4])
    # A day without a solve leaves the streak standing; two end it.
    assert streak.current_on(days[4] + datetime.timedelta(days=1)) == 2
    assert streak.current_on(days[4] + datetime.timedelta(days=2)) == 0


def test_anonymous_solvers_are_judged_but_nothing_is_stored(puzzle):
    verdict = services.puzzle_attempt_submit(
        puzzle=puzzle, user=AnonymousUser(), submission=submission(puzzle, puzzle.line)
    )
    assert verdict.solved and not verdict.rated and verdict.streak is None
    gave_up = services.puzzle_give_up(puzzle=puzzle, user=AnonymousUser())
    assert gave_up.line == puzzle.line
    assert not PuzzleAttempt.objects.exists()
    assert not RatingChange.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.rated_attempts == 0


def test_preparing_tomorrow_makes_tomorrows_puzzle_once(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: MONDAY)
    made = services.daily_puzzle_prepare_tomorrow()
    assert made.date == MONDAY + datetime.timedelta(days=1)
    assert services.daily_puzzle_prepare_tomorrow().pk == made.pk
    assert DailyPuzzle.objects.count() == 1
