"""The training pages: stream, Storm start and clock, dashboard; the answer stays out of the
page until the puzzle is answered."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from puzzles.models import TrainingPuzzle, TrainingRun
from tests.support.players import create_player
from tests.support.training import board_data, failing_line, training_pool

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_stream_page_serves_a_puzzle_without_its_line_and_judges_answers(client):
    training_pool([1450, 1500, 1550])
    client.force_login(create_player("robin"))
    assert client.get(reverse("puzzles:train"), {"difficulty": "brutal"}).status_code == 400
    page = client.get(reverse("puzzles:train"), {"difficulty": "easier"})
    assert page.status_code == 200
    data = board_data(page)
    puzzle = TrainingPuzzle.objects.get(pk=int(data["urls"]["submit"].split("/")[3]))
    assert data["line"] is None and "?difficulty=easier" in data["next_url"]
    assert json.dumps(puzzle.line) not in page.content.decode()

    wrong = client.post(
        data["urls"]["submit"],
        {"seat": puzzle.seat, "moves": failing_line(puzzle)},
        content_type="application/json",
    ).json()
    assert wrong["rated"] and not wrong["solved"] and "line" not in wrong
    gave_up = client.post(data["urls"]["give_up"], {}, content_type="application/json").json()
    assert gave_up["line"] == puzzle.line and gave_up["rated"] is False
    # Replay from the dashboard.
    dashboard = client.get(reverse("puzzles:dashboard"))
    assert reverse("puzzles:train_puzzle", args=[puzzle.pk]) in dashboard.content.decode()


def test_a_storm_page_counts_down_from_the_servers_deadline(client):
    training_pool(range(900, 1900, 50))
    runner = create_player("swift")
    client.force_login(runner)
    assert b"Best of all time" in client.get(reverse("puzzles:storm")).content
    started = client.post(reverse("puzzles:storm"))
    run = TrainingRun.objects.get(user=runner)
    assert started.url == reverse("puzzles:run", args=[run.pk])
    data = board_data(client.get(started.url))
    assert data["run"]["deadline_ms"] - data["run"]["server_ms"] == pytest.approx(180_000, abs=5000)
    assert data["urls"]["submit"].endswith(f"?run={run.pk}")
    # Someone else's run is not there at all.
    client.force_login(create_player("other"))
    assert client.get(started.url).status_code == 404
    refused = client.post(data["urls"]["give_up"], {}, content_type="application/json")
    assert refused.status_code == 404


def test_a_runs_puzzle_cannot_be_given_up_beside_the_run(client):
    """The stream's give-up would show the line of the run's puzzle, to be solved in the run."""
    training_pool(range(900, 1900, 50))
    runner = create_player("magpie")
    client.force_login(runner)
    client.post(reverse("puzzles:streak"))
    run = TrainingRun.objects.get(user=runner)
    beside = client.post(reverse("puzzles:train_give_up", args=[run.current_id]))
    assert beside.status_code == 400 and "open run" in beside.json()["error"]
    assert not run.current.attempts.exists()
