"""Puzzle training on PostgreSQL: rated first attempts, selection near the rating, Streak,
Storm on the server's clock, and the dashboard."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from puzzles import training_selectors as selectors
from puzzles import training_services as services
from puzzles.models import TrainingAttempt, TrainingPuzzle, TrainingRun
from puzzles.services import SubmissionRefused
from puzzles.trainers import TRAINERS
from ratings.models import PUZZLE
from ratings.selectors import rating_of
from tests.support.players import create_player
from tests.support.threads import at_once
from tests.support.training import (
    QUICK_DATES,
    failing_line,
    training_pool,
    training_puzzle,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def answer(puzzle: TrainingPuzzle, moves: list[str]) -> dict:
    return {"seat": puzzle.seat, "moves": moves}


def test_a_first_attempt_moves_both_ratings_and_a_retry_moves_none():
    solver = create_player("hedgehog")
    puzzle = training_puzzle(rating=1500)

    missed = services.training_attempt_submit(
        puzzle=puzzle, user=solver, submission=answer(puzzle, failing_line(puzzle))
    )
    assert missed.rated and not missed.solved
    # The answer stays on the server until the puzzle is solved or given up.
    assert missed.line is None
    assert missed.rating_after < missed.rating_before == 1500
    puzzle.refresh_from_db()
    assert puzzle.rating > 1500 and puzzle.rated_attempts == 1
    assert puzzle.rating - 1500 <= services.PUZZLE_MAX_CHANGE
    user_rating = rating_of(user=solver, kind=PUZZLE).value
    assert user_rating == pytest.approx(missed.rating_after)

    retry = services.training_attempt_submit(
        puzzle=puzzle, user=solver, submission=answer(puzzle, list(puzzle.line))
    )
    assert retry.solved and not retry.rated
    assert retry.line == puzzle.line
    assert TrainingPuzzle.objects.get(pk=puzzle.pk).rating == puzzle.rating
    assert rating_of(user=solver, kind=PUZZLE).value == user_rating


def test_the_puzzle_change_is_capped():
    """A fresh puzzle (K = 40) losing to a much weaker solver would fall ~36 points; capped."""
    puzzle = training_puzzle(rating=2400)
    verdict = services.training_attempt_submit(
        puzzle=puzzle, user=create_player("lucky"), submission=answer(puzzle, list(puzzle.line))
    )
    assert verdict.puzzle_rating_after == 2400 - services.PUZZLE_MAX_CHANGE
    assert verdict.rating_after - verdict.rating_before > 30


def test_a_refused_answer_changes_nothing():
    puzzle = training_puzzle(rating=1500)
    solver = create_player("typo")
    with pytest.raises(SubmissionRefused):
        services.training_attempt_submit(
            puzzle=puzzle, user=solver, submission=answer(puzzle, ["z9"])
        )
    assert not TrainingAttempt.objects.exists()
    assert TrainingPuzzle.objects.get(pk=puzzle.pk).rating == 1500


@pytest.mark.django_db(transaction=True)
def test_a_double_submit_is_rated_once():
    puzzle = training_puzzle(rating=1500)
    solver = create_player("double")
    line = answer(puzzle, list(puzzle.line))
    outcomes = at_once(
        lambda _: services.training_attempt_submit(puzzle=puzzle, user=solver, submission=line),
        range(3),
    )
    assert [error for _, error in outcomes] == [None] * 3
    assert sorted(verdict.rated for verdict, _ in outcomes) == [False, False, True]
    assert TrainingPuzzle.objects.get(pk=puzzle.pk).rated_attempts == 1
    assert rating_of(user=solver, kind=PUZZLE).games == 1


def test_the_next_puzzle_is_near_the_rating_and_never_one_seen():
    training_pool(range(600, 2600, 10))
    solver = create_player("owl")
    seen = set()
    for _ in range(25):
        rating = rating_of(user=solver, kind=PUZZLE).value
        puzzle = selectors.training_puzzle_next(user=solver, target=rating, kinds=["topiary"])
        assert puzzle.pk not in seen
        # 25 answers seen at 10-point spacing push the nearest unseen ones out by ~130 points.
        assert abs(puzzle.rating - rating) <= 200
        seen.add(puzzle.pk)
        services.training_give_up(puzzle=puzzle, user=solver)
    rating = rating_of(user=solver, kind=PUZZLE).value
    harder = selectors.training_puzzle_next(
        user=solver, target=selectors.difficulty_target(rating, "harder"), kinds=["topiary"]
    )
    assert 200 <= harder.rating - rating <= 400


def test_theme_and_own_endings_filter_the_stream():
    training_pool([1500, 1510, 1490])
    solver = create_player("badger")
    far_theme = training_puzzle(QUICK_DATES[1], rating=2300, themes=["blocking"])
    own = training_puzzle(QUICK_DATES[2], rating=900, source_user=solver)
    themed = selectors.training_puzzle_next(
        user=solver, target=1500, kinds=["topiary"], theme="blocking"
    )
    assert themed == far_theme
    assert selectors.own_ending_next(user=solver, kinds=["topiary"]) == own
    assert selectors.own_ending_next(user=create_player("other"), kinds=["topiary"]) is None
    services.training_give_up(puzzle=own, user=solver)
    assert selectors.own_ending_next(user=solver, kinds=["topiary"]) is None


def test_a_streak_rises_and_ends_at_the_first_mistake():
    training_pool(range(900, 1900, 20))
    runner = create_player("fox")
    run = services.training_run_start(user=runner, mode="streak")
    served = [run.current]
    for _ in range(3):
        puzzle = run.current
        verdict = services.training_attempt_submit(
            puzzle=puzzle, user=runner, submission=answer(puzzle, list(puzzle.line)), run=run
        )
        run.refresh_from_db()
        assert verdict.run.score == len(served) and not verdict.run.over
        served.append(run.current)
    # Each solve makes the next one harder, starting below the runner.
    assert served[0].rating < 1500
    assert served[-1].rating > served[0].rating
    last = run.current
    verdict = services.training_attempt_submit(
        puzzle=last, user=runner, submission=answer(last, failing_line(last)), run=run
    )
    assert verdict.run.over and verdict.run.score == 3 and verdict.run.next_puzzle is None
    with pytest.raises(services.RunRefused):
        services.training_attempt_submit(
            puzzle=last, user=runner, submission=answer(last, list(last.line)), run=run
        )
    assert selectors.best_score(user=runner, mode="streak") == 3
    assert [row.score for row in selectors.run_leaders(mode="streak")] == [3]


def test_a_storm_answer_after_the_servers_deadline_does_not_count():
    training_pool(range(900, 1900, 20))
    runner = create_player("hare")
    run = services.training_run_start(user=runner, mode="storm")
    assert run.deadline - run.started_at == datetime.timedelta(seconds=180)
    first = run.current
    missed = services.training_attempt_submit(
        puzzle=first, user=runner, submission=answer(first, failing_line(first)), run=run
    )
    # A mistake costs seconds but does not end a storm.
    assert not missed.run.over and missed.run.deadline == run.deadline - datetime.timedelta(
        seconds=10
    )
    run.refresh_from_db()
    solved = services.training_attempt_submit(
        puzzle=run.current,
        user=runner,
        submission=answer(run.current, list(run.current.line)),
        run=run,
    )
    assert solved.run.score == 1
    run.refresh_from_db()
    # The server's clock passes the deadline (the client may think there is time left).
    TrainingRun.objects.filter(pk=run.pk).update(
        deadline=timezone.now() - datetime.timedelta(seconds=1)
    )
    late_puzzle = run.current
    late = services.training_attempt_submit(
        puzzle=late_puzzle,
        user=runner,
        submission=answer(late_puzzle, list(late_puzzle.line)),
        run=run,
    )
    assert late.run.late and late.run.over and late.run.score == 1
    assert not late.solved and late.line is None
    assert not TrainingAttempt.objects.filter(user=runner, puzzle=late_puzzle).exists()
    assert selectors.best_score(user=runner, mode="storm") == 1
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    assert [row.username for row in selectors.run_leaders(mode="storm", since=today)] == ["hare"]


def test_the_dashboard_ranks_themes_by_performance():
    solver = create_player("mole")
    for n in range(4):
        easy = training_puzzle(rating=1200, themes=["place-only"], tag=f"easy{n}")
        services.training_attempt_submit(
            puzzle=easy, user=solver, submission=answer(easy, list(easy.line))
        )
        hard = training_puzzle(rating=1800, themes=["blocking"], tag=f"hard{n}")
        services.training_give_up(puzzle=hard, user=solver)
    board = selectors.dashboard(user=solver)
    by_theme = {stats.theme: stats for stats in board.themes}
    assert by_theme["place-only"].first_try_rate == 1.0
    assert by_theme["place-only"].performance == 1200 - 500 + 1000
    assert by_theme["blocking"].performance == 1800 - 500
    assert [s.theme for s in board.strongest] == ["place-only", "blocking"]
    assert board.overall.attempts == 8
    assert len(board.to_replay) == 4
    assert {p.themes[0] for p in board.to_replay} == {"blocking"}


def test_the_committed_pool_is_served_and_judged_by_training():
    """The site's own mined pools (not test copies): each game's puzzles are served near the
    rating and their stored lines (the solver's moves of it) solve them."""
    call_command("load_puzzle_pool", stdout=io.StringIO())
    solver = create_player("pool")
    for kind in ("topiary", "wizards_garden"):
        choice = selectors.stream_choice(
            difficulty="normal", theme="", kind=kind, kinds=services.gradable_kinds()
        )
        for _ in range(2):
            puzzle, own = selectors.stream_next(user=solver, rating=1500.0, choice=choice)
            assert puzzle.kind == kind and not own
            moves = TRAINERS[kind].answer(puzzle.line)
            verdict = services.training_attempt_submit(
                puzzle=puzzle, user=solver, submission=answer(puzzle, moves)
            )
            assert verdict.solved and verdict.rated
