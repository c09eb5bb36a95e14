"""The training stream over the API: next puzzle and answers, for ``puzzle:write`` tokens."""

from __future__ import annotations

import pytest

from api.schemas import TrainingPuzzleOut
from puzzles.models import TrainingPuzzle
from tests.api.conftest import Api
from tests.support.training import failing_line, garden_puzzle, training_pool

pytestmark = pytest.mark.django_db


def test_next_then_answer_rates_the_first_try_and_never_serves_it_again(
    client, make_player, make_token
):
    # Six puzzles, all among the nearest the stream picks from.
    training_pool(range(1450, 1570, 20))
    ann = make_player()
    reader = Api(client, make_token(ann, "read")[1])
    assert reader.get("/puzzles/next").json()["code"] == "missing_scope"
    api = Api(client, make_token(ann, "puzzle:write")[1])
    assert api.get("/puzzles/next", difficulty="brutal").status_code == 400
    assert api.get("/puzzles/next", theme="brutal").status_code == 400
    # A theme nobody's puzzles have: nothing to serve.
    assert api.get("/puzzles/next", theme="blocking").status_code == 404

    served = api.get("/puzzles/next").json()
    assert served["line"] is None and served["legal_moves"]
    assert 1400 <= served["rating"] <= 1600 and served["own"] is False
    puzzle = TrainingPuzzle.objects.get(pk=served["id"])
    # Nothing of the answer reaches the client before it is answered.
    assert set(served) == set(TrainingPuzzleOut.model_fields)

    wrong = api.post(
        f"/puzzles/training/{puzzle.pk}/submit",
        {"seat": puzzle.seat, "moves": failing_line(puzzle)},
    ).json()
    assert wrong["rated"] is True and wrong["solved"] is False and wrong["line"] is None
    assert wrong["rating_after"] < wrong["rating_before"]
    assert wrong["puzzle_rating_after"] > wrong["puzzle_rating_before"]

    again = api.post(
        f"/puzzles/training/{puzzle.pk}/submit", {"seat": puzzle.seat, "moves": puzzle.line}
    ).json()
    assert again["solved"] is True and again["rated"] is False and again["line"] == puzzle.line

    for _ in range(5):
        other = api.get("/puzzles/next").json()
        assert other["id"] != puzzle.pk
        api.post(f"/puzzles/training/{other['id']}/give-up")
    assert api.get("/puzzles/next").status_code == 404
    assert api.post("/puzzles/training/999999/give-up").status_code == 404
    bad = api.post(f"/puzzles/training/{puzzle.pk}/submit", {"seat": 7, "moves": []})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_a_garden_puzzle_is_served_played_step_by_step_and_judged(client, make_player, make_token):
    """Wizards' Garden: ``play`` answers each planting with the engine's best reply; the
    submission holds the solver's plantings only."""
    from engine.wizards_garden import puzzles as garden_puzzles

    puzzle = garden_puzzle("staff", k=2)
    api = Api(client, make_token(make_player(), "puzzle:write")[1])
    served = api.get("/puzzles/next", kind="wizards_garden").json()
    assert served["id"] == puzzle.pk and served["line"] is None and served["k"] == 2
    first = puzzle.line[0]
    step = api.post(
        f"/puzzles/training/{puzzle.pk}/play", {"seat": puzzle.seat, "moves": [first]}
    ).json()
    assert step["replies"] == [garden_puzzles.reply(puzzle.position, 2, [first])]
    assert step["left"] == 1 and "line" not in step
    bad = api.post(f"/puzzles/training/{puzzle.pk}/play", {"seat": puzzle.seat, "moves": ["a1"]})
    assert bad.status_code == 400
    moves = [first, step["legal_moves"][0]]
    verdict = api.post(
        f"/puzzles/training/{puzzle.pk}/submit", {"seat": puzzle.seat, "moves": moves}
    ).json()
    assert verdict["rated"] is True
    assert verdict["score"] == garden_puzzles.grade(puzzle.position, 2, moves)
    assert (verdict["line"] == puzzle.line) == verdict["solved"]
