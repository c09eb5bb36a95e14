"""Wizards' Garden puzzles in training on PostgreSQL: served by kind, the opponent's replies
are the engine's, answers graded and rated once, the answer kept out of the page until the
end (the API: tests/api/test_training.py)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from engine.wizards_garden import puzzles as garden_puzzles
from puzzles import training_selectors as selectors
from puzzles import training_services as services
from puzzles.models import TrainingAttempt
from puzzles.services import SubmissionRefused
from puzzles.trainers import training_progress
from ratings.models import PUZZLE
from ratings.selectors import rating_of
from tests.support.players import create_player
from tests.support.training import (
    board_data,
    garden_failing_move,
    garden_puzzle,
    training_puzzle,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def answer(puzzle, moves):
    return {"seat": puzzle.seat, "moves": moves}


def test_a_garden_puzzle_answered_right_and_wrong_moves_ratings_once():
    right, wrong = garden_puzzle("harvest"), garden_puzzle("staff", k=2)
    assert right.themes == ["harvest"] and wrong.themes == ["harvest", "staff"]
    solver = create_player("gardener")

    solved = services.training_attempt_submit(
        puzzle=right, user=solver, submission=answer(right, [right.line[0]])
    )
    assert solved.solved and solved.rated and solved.score == right.optimum == 2
    assert solved.rating_after > solved.rating_before
    assert solved.puzzle_rating_after < solved.puzzle_rating_before
    assert solved.line == right.line

    # K = 2: a wrong first planting, then any second one; the engine replies in between.
    first = garden_failing_move(wrong)
    reply = garden_puzzles.reply(wrong.position, 2, [first])
    second = training_progress(wrong, answer(wrong, [first])).legal_moves[0]
    missed = services.training_attempt_submit(
        puzzle=wrong, user=solver, submission=answer(wrong, [first, second])
    )
    assert reply is not None
    assert not missed.solved and missed.rated and missed.line is None
    assert missed.score == garden_puzzles.grade(wrong.position, 2, [first, second]) < 3
    after_wrong = rating_of(user=solver, kind=PUZZLE).value
    assert after_wrong < solved.rating_after

    # A retry is practice: it solves, reveals the line and moves no rating.
    retry = services.training_attempt_submit(
        puzzle=wrong, user=solver, submission=answer(wrong, [wrong.line[0], wrong.line[2]])
    )
    assert retry.solved and not retry.rated and retry.line == wrong.line
    assert rating_of(user=solver, kind=PUZZLE).value == after_wrong
    assert TrainingAttempt.objects.filter(user=solver, rated=True).count() == 2

    # Bad answers are refused and stored nowhere.
    for bad in ([], ["a1W"], [first, second, second], ["zz"]):
        with pytest.raises(SubmissionRefused):
            services.training_attempt_submit(
                puzzle=wrong, user=solver, submission=answer(wrong, bad)
            )
    assert TrainingAttempt.objects.filter(user=solver).count() == 3
    themes = {row.theme: row for row in selectors.dashboard(user=solver).themes}
    assert (themes["harvest"].attempts, themes["harvest"].first_try) == (2, 1)
    assert (themes["staff"].attempts, themes["staff"].first_try) == (1, 0)


def test_a_streak_serves_and_judges_garden_puzzles():
    for seat in (0, 1):
        garden_puzzle("staff", rating=1000 + 100 * seat, to_move=seat)
        garden_puzzle("harvest", rating=1050 + 100 * seat, to_move=seat)
    runner = create_player("streaker")
    run = services.training_run_start(user=runner, mode="streak")
    for solved in (1, 2):
        puzzle = run.current
        assert puzzle.kind == "wizards_garden"
        verdict = services.training_attempt_submit(
            puzzle=puzzle, user=runner, submission=answer(puzzle, [puzzle.line[0]]), run=run
        )
        assert verdict.solved and verdict.run.score == solved and not verdict.run.over
        run.refresh_from_db()
    puzzle = run.current
    verdict = services.training_attempt_submit(
        puzzle=puzzle,
        user=runner,
        submission=answer(puzzle, [garden_failing_move(puzzle)]),
        run=run,
    )
    assert not verdict.solved and verdict.run.over and verdict.run.score == 2


def test_the_replies_are_the_engines_best_and_the_stream_serves_garden_puzzles(client):
    puzzle = garden_puzzle("staff", k=2)
    training_puzzle(rating=puzzle.rating)
    first = garden_failing_move(puzzle)
    progress = training_progress(puzzle, answer(puzzle, [first]))
    assert progress.replies == [garden_puzzles.reply(puzzle.position, 2, [first])]
    assert progress.left == 1 and progress.legal_moves
    assert progress.position["to_move"] == puzzle.seat

    solver = create_player("picker")
    for kind, expected in (("wizards_garden", {"wizards_garden"}), ("topiary", {"topiary"})):
        choice = selectors.stream_choice(
            difficulty="normal", theme="", kind=kind, kinds=services.gradable_kinds()
        )
        found, _own = selectors.stream_next(user=solver, rating=puzzle.rating, choice=choice)
        assert {found.kind} == expected
    themed = selectors.stream_choice(
        difficulty="normal", theme="staff", kind="", kinds=services.gradable_kinds()
    )
    assert selectors.stream_next(user=solver, rating=1500, choice=themed)[0] == puzzle

    # The page: the board's data names the game, the answer is nowhere in it; play/ replies.
    client.force_login(solver)
    page = client.get(reverse("puzzles:train"), {"kind": "wizards_garden"})
    data = board_data(page)
    assert data["kind"] == "wizards_garden" and data["line"] is None and data["k"] == 2
    html = page.content.decode()
    assert json.dumps(puzzle.line) not in html and ", ".join(puzzle.line) not in html
    assert "d4B" in data["legal_moves"]
    step = client.post(
        data["urls"]["play"], answer(puzzle, [first]), content_type="application/json"
    ).json()
    assert step["replies"] == progress.replies and step["left"] == 1
    assert "line" not in step
