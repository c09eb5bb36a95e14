"""Puzzle Streak and Puzzle Storm over the API: a bot plays a run as the pages do, and an
answer the run cannot take (stale, resent, late, another's) changes nothing."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from api.schemas import RunOut, RunVerdictOut, TrainingPuzzleOut
from puzzles.models import TrainingAttempt, TrainingPuzzle, TrainingRun
from ratings.models import PUZZLE
from ratings.selectors import rating_of
from tests.api.conftest import Api
from tests.support.training import failing_line, training_pool

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(db):
    """Fifty proven puzzles from 900 to 1880, enough for the runs' rising targets."""
    return training_pool(range(900, 1900, 20))


def _answer(run: dict, moves=None) -> dict:
    """A body answering the run's current puzzle: its line (a solve) unless ``moves``."""
    puzzle = TrainingPuzzle.objects.get(pk=run["puzzle"]["id"])
    line = list(puzzle.line) if moves is None else moves(puzzle)
    return {"puzzle": puzzle.pk, "seat": puzzle.seat, "moves": line}


def _snapshot(user) -> tuple:
    """What an answer may change: the player's puzzle rating, their runs and attempts."""
    return (
        rating_of(user=user, kind=PUZZLE).value,
        list(TrainingRun.objects.filter(user=user).order_by("pk").values()),
        TrainingAttempt.objects.filter(user=user).count(),
    )


def test_a_streak_is_played_through_the_api_to_its_first_mistake(
    client, pool, make_player, make_token
):
    api = Api(client, make_token(make_player(), "puzzle:write")[1])
    run = api.post("/puzzles/runs", {"mode": "streak"}).json()
    assert set(run) == set(RunOut.model_fields)
    assert set(run["puzzle"]) == set(TrainingPuzzleOut.model_fields)
    assert run["mode"] == "streak" and run["score"] == 0 and run["over"] is False
    assert run["deadline"] is None and run["seconds_left"] is None
    assert run["puzzle"]["line"] is None
    served = [run["puzzle"]]
    for solved in range(1, 4):
        puzzle = TrainingPuzzle.objects.get(pk=run["puzzle"]["id"])
        verdict = api.post(f"/puzzles/runs/{run['id']}/submit", _answer(run)).json()
        assert set(verdict) == set(RunVerdictOut.model_fields)
        # The first answer to a puzzle is rated, and its line is shown once it is solved.
        assert verdict["solved"] is True and verdict["rated"] is True
        assert verdict["line"] == puzzle.line and verdict["late"] is False
        run = verdict["run"]
        assert run["score"] == solved and run["over"] is False
        # The next puzzle is a new one, a step harder, and its answer is not sent.
        assert run["puzzle"]["id"] not in {p["id"] for p in served}
        assert run["puzzle"]["line"] is None
        served.append(run["puzzle"])
    assert served[-1]["rating"] > served[0]["rating"]
    assert api.get(f"/puzzles/runs/{run['id']}").json() == run

    missed = api.post(f"/puzzles/runs/{run['id']}/submit", _answer(run, failing_line)).json()
    assert missed["solved"] is False and missed["rated"] is True
    # A mistake does not reveal the answer (as on the page: only a solve or a give-up does).
    assert missed["line"] is None
    assert missed["run"]["over"] is True and missed["run"]["score"] == 3
    assert missed["run"]["mistakes"] == 1 and missed["run"]["puzzle"] is None
    assert api.get(f"/puzzles/runs/{run['id']}").json() == missed["run"]


def test_a_storm_keeps_its_servers_deadline_and_refuses_to_judge_after_it(
    client, pool, settings, make_player, make_token
):
    runner = make_player()
    api = Api(client, make_token(runner, "puzzle:write")[1])
    storm = api.post("/puzzles/runs", {"mode": "storm"}).json()
    assert storm["deadline"] and 0 < storm["seconds_left"] <= settings.PUZZLE_STORM_SECONDS
    missed = api.post(f"/puzzles/runs/{storm['id']}/submit", _answer(storm, failing_line))
    missed = missed.json()
    # A mistake costs time but does not end a storm; the next puzzle comes at once.
    assert missed["run"]["over"] is False and missed["run"]["puzzle"] is not None
    left = settings.PUZZLE_STORM_SECONDS - settings.PUZZLE_STORM_PENALTY_SECONDS
    assert missed["run"]["seconds_left"] <= left
    assert missed["run"]["deadline"] < storm["deadline"]

    # A storm with no time at all: any answer reaches the server after its deadline.
    settings.PUZZLE_STORM_SECONDS = 0
    late_run = api.post("/puzzles/runs", {"mode": "storm"}).json()
    before = rating_of(user=runner, kind=PUZZLE).value
    late = api.post(f"/puzzles/runs/{late_run['id']}/submit", _answer(late_run)).json()
    assert late["late"] is True and late["score"] is None and late["solved"] is False
    assert late["line"] is None and late["rated"] is False
    assert late["run"]["over"] is True and late["run"]["score"] == 0
    assert late["run"]["seconds_left"] == 0 and late["run"]["puzzle"] is None
    assert rating_of(user=runner, kind=PUZZLE).value == before
    assert not TrainingAttempt.objects.filter(puzzle_id=late_run["puzzle"]["id"]).exists()
    again = api.post(f"/puzzles/runs/{late_run['id']}/submit", _answer(late_run))
    assert again.status_code == 409 and again.json()["code"] == "finished"

    # Read past its deadline, a storm is over at the deadline, with its puzzle withdrawn.
    unread = api.post("/puzzles/runs", {"mode": "storm"}).json()
    read = api.get(f"/puzzles/runs/{unread['id']}").json()
    assert read["over"] is True and read["puzzle"] is None and read["seconds_left"] == 0
    ended = TrainingRun.objects.get(pk=unread["id"])
    assert ended.ended_at == ended.deadline
    gave_up = api.post(f"/puzzles/runs/{unread['id']}/give-up", {"puzzle": unread["puzzle"]["id"]})
    assert gave_up.status_code == 409 and gave_up.json()["code"] == "finished"


def test_stale_foreign_and_finished_answers_are_refused_and_change_nothing(
    client, pool, make_player, make_token
):
    ann, bob = make_player(), make_player()
    ann_api = Api(client, make_token(ann, "puzzle:write")[1])
    bob_api = Api(client, make_token(bob, "puzzle:write")[1])
    run = ann_api.post("/puzzles/runs", {"mode": "streak"}).json()
    other = TrainingPuzzle.objects.exclude(pk=run["puzzle"]["id"]).first()
    before_ann, before_bob = _snapshot(ann), _snapshot(bob)

    stale = ann_api.post(
        f"/puzzles/runs/{run['id']}/submit",
        {"puzzle": other.pk, "seat": other.seat, "moves": list(other.line)},
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    stale = ann_api.post(f"/puzzles/runs/{run['id']}/give-up", {"puzzle": other.pk})
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    # Another's run is as good as missing: not found, to read or to answer.
    for foreign in (
        bob_api.get(f"/puzzles/runs/{run['id']}"),
        bob_api.post(f"/puzzles/runs/{run['id']}/submit", _answer(run)),
        bob_api.post(f"/puzzles/runs/{run['id']}/give-up", {"puzzle": run["puzzle"]["id"]}),
        ann_api.post("/puzzles/runs/999999/submit", _answer(run)),
    ):
        assert foreign.status_code == 404 and foreign.json()["code"] == "not_found"
    # An answer that names no puzzle could be judged against the wrong one: refused.
    unnamed = ann_api.post(f"/puzzles/runs/{run['id']}/submit", {"seat": 0, "moves": []})
    assert unnamed.status_code == 400 and "puzzle" in unnamed.json()["message"]
    assert _snapshot(ann) == before_ann and _snapshot(bob) == before_bob

    # Starting a new streak ends the open one: its answers are refused from then on.
    ann_api.post("/puzzles/runs", {"mode": "streak"})
    before_ann = _snapshot(ann)
    over = ann_api.post(f"/puzzles/runs/{run['id']}/submit", _answer(run))
    assert over.status_code == 409 and over.json()["code"] == "finished"
    assert _snapshot(ann) == before_ann


def test_a_resent_answer_counts_once(client, pool, make_player, make_token):
    runner = make_player()
    api = Api(client, make_token(runner, "puzzle:write")[1])
    run = api.post("/puzzles/runs", {"mode": "storm"}).json()
    first = _answer(run)
    after = api.post(f"/puzzles/runs/{run['id']}/submit", first).json()["run"]
    counted = _snapshot(runner)
    resent = api.post(f"/puzzles/runs/{run['id']}/submit", first)
    assert resent.status_code == 409 and resent.json()["code"] == "stale"
    assert _snapshot(runner) == counted
    assert TrainingAttempt.objects.filter(user=runner, puzzle_id=first["puzzle"]).count() == 1

    give_up = {"puzzle": after["puzzle"]["id"]}
    verdict = api.post(f"/puzzles/runs/{run['id']}/give-up", give_up).json()
    # Giving up shows the line and is a mistake; the storm goes on.
    puzzle = TrainingPuzzle.objects.get(pk=give_up["puzzle"])
    assert verdict["line"] == puzzle.line and verdict["rated"] is True
    assert verdict["run"]["score"] == 1 and verdict["run"]["mistakes"] == 1
    counted = _snapshot(runner)
    assert api.post(f"/puzzles/runs/{run['id']}/give-up", give_up).status_code == 409
    assert _snapshot(runner) == counted


@pytest.mark.django_db(transaction=True)
def test_one_answer_sent_twice_at_once_counts_once(make_player, make_token):
    training_pool(range(900, 1900, 20))
    runner = make_player()
    _, secret = make_token(runner, "puzzle:write")
    run = Api(Client(), secret).post("/puzzles/runs", {"mode": "storm"}).json()
    body = _answer(run)
    both_ready = threading.Barrier(2)

    def send(_):
        both_ready.wait()
        try:
            return Api(Client(), secret).post(f"/puzzles/runs/{run['id']}/submit", body)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as senders:
        answers = list(senders.map(send, range(2)))
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    assert TrainingRun.objects.get(pk=run["id"]).score == 1
    assert TrainingAttempt.objects.filter(user=runner).count() == 1


def test_a_runs_puzzle_is_answered_in_the_run_not_beside_it(client, pool, make_player, make_token):
    """Giving up a run's puzzle on the stream's endpoints would show its line, then solve it
    in the run for a free point: refused while the run is open."""
    runner = make_player()
    api = Api(client, make_token(runner, "puzzle:write")[1])
    run = api.post("/puzzles/runs", {"mode": "streak"}).json()
    puzzle = run["puzzle"]
    before = _snapshot(runner)
    peek = api.post(f"/puzzles/training/{puzzle['id']}/give-up")
    assert peek.status_code == 409 and peek.json()["code"] == "not_allowed"
    body = {"seat": puzzle["seat"], "moves": _answer(run)["moves"]}
    aside = api.post(f"/puzzles/training/{puzzle['id']}/submit", body)
    assert aside.status_code == 409 and aside.json()["code"] == "not_allowed"
    assert _snapshot(runner) == before
    # Once the run is over (here: given up in it), the puzzle is the stream's like any other.
    api.post(f"/puzzles/runs/{run['id']}/give-up", {"puzzle": puzzle["id"]})
    assert api.post(f"/puzzles/training/{puzzle['id']}/submit", body).json()["solved"] is True


def test_runs_need_the_puzzle_write_scope_and_a_known_mode(client, pool, make_player, make_token):
    ann = make_player()
    run = Api(client, make_token(ann, "puzzle:write")[1]).post("/puzzles/runs", {"mode": "storm"})
    run = run.json()
    before = _snapshot(ann)
    reader = Api(client, make_token(ann, "read", "play")[1])
    nobody = Api(client)
    for api, status, code in ((reader, 403, "missing_scope"), (nobody, 401, "unauthorized")):
        for refused in (
            api.post("/puzzles/runs", {"mode": "streak"}),
            api.get(f"/puzzles/runs/{run['id']}"),
            api.post(f"/puzzles/runs/{run['id']}/submit", _answer(run)),
            api.post(f"/puzzles/runs/{run['id']}/give-up", {"puzzle": run["puzzle"]["id"]}),
        ):
            assert refused.status_code == status and refused.json()["code"] == code
    assert _snapshot(ann) == before
    writer = Api(client, make_token(ann, "puzzle:write")[1])
    unknown = writer.post("/puzzles/runs", {"mode": "blitz"})
    assert unknown.status_code == 400 and unknown.json()["message"].startswith("mode:")


def test_a_run_with_no_puzzle_left_is_not_found(client, make_player, make_token):
    api = Api(client, make_token(make_player(), "puzzle:write")[1])
    empty = api.post("/puzzles/runs", {"mode": "streak"})
    assert empty.status_code == 404 and empty.json()["code"] == "not_found"


def test_the_document_lists_the_runs_with_their_answers(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    answer = "#/components/schemas/{}"
    expected = {
        ("post", "/api/puzzles/runs"): "RunOut",
        ("get", "/api/puzzles/runs/{run_id}"): "RunOut",
        ("post", "/api/puzzles/runs/{run_id}/submit"): "RunVerdictOut",
        ("post", "/api/puzzles/runs/{run_id}/give-up"): "RunVerdictOut",
    }
    for (method, path), schema in expected.items():
        ok = paths[path][method]["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok == {"$ref": answer.format(schema)}, (method, path)
