"""Asking for a game's analysis and running it: once per game, refusals that change nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from analysis import services
from analysis.models import Analysis
from engine import analysis as engine_analysis
from games.history_selectors import game_record
from games.services import Refused
from tests.ratings.played import make_user, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    """The analysis ids queued for the task (the broker is not reached)."""
    ids = []
    monkeypatch.setattr(services, "_task_queue", ids.append)
    return ids


@pytest.fixture
def players():
    return [make_user("ann"), make_user("bob"), make_user("cy")]


@pytest.fixture
def garden_game(players):
    """A finished Wizards' Garden game between ann and bob (analysed in seconds)."""
    return play_game(players[:2], kind="wizards_garden")


def request(game, user, capture):
    with capture(execute=True):
        return services.analysis_request(game_id=game.pk, user=user)


def test_asking_twice_or_by_anyone_signed_in_gives_one_analysis_and_one_task(
    garden_game, players, queued, django_capture_on_commit_callbacks
):
    first = request(garden_game, players[0], django_capture_on_commit_callbacks)
    assert first.status == Analysis.Status.QUEUED
    # A spectator of the finished (so public) game asks too: the same analysis.
    again = request(garden_game, players[2], django_capture_on_commit_callbacks)
    assert again.pk == first.pk
    assert Analysis.objects.count() == 1
    # The task gets the analysis id only: nothing of the game.
    assert queued == [first.pk]


@pytest.mark.parametrize("who", ["anonymous", "running game", "no such game"])
def test_refusals_are_clear_and_change_nothing(players, queued, who):
    from django.contrib.auth.models import AnonymousUser

    running = play_game(players[:2], plies=3)
    if who == "anonymous":
        game_id, user, code = (
            play_game(players[:2], kind="wizards_garden").pk,
            AnonymousUser(),
            "sign_in",
        )
    elif who == "running game":
        game_id, user, code = running.pk, players[0], "not_found"
    else:
        game_id, user, code = running.pk + 1000, players[0], "not_found"
    with pytest.raises(Refused) as refusal:
        services.analysis_request(game_id=game_id, user=user)
    assert refusal.value.code == code
    assert refusal.value.reason.endswith(".")
    assert Analysis.objects.count() == 0 and queued == []


def test_running_it_analyses_every_turn_once_and_a_second_run_does_nothing(
    garden_game, players, queued, django_capture_on_commit_callbacks
):
    analysis = request(garden_game, players[0], django_capture_on_commit_callbacks)
    services.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE and analysis.runs == 1
    record = game_record(garden_game)
    assert analysis.done == analysis.total == len(record["moves"])
    expected = engine_analysis.analyse_record(record, seed=f"game/{garden_game.pk}")
    assert analysis.result == expected
    services.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.runs == 1 and analysis.result == expected


def test_a_run_whose_worker_died_is_resumed_where_it_stopped(garden_game, players):
    record = game_record(garden_game)
    seed = f"game/{garden_game.pk}"
    whole = engine_analysis.analyse_record(record, seed=seed)
    # A worker saved five turns, then died: no progress for longer than STALE.
    analysis = Analysis.objects.create(
        game=garden_game,
        status=Analysis.Status.RUNNING,
        result={"turns": whole["turns"][:5]},
        done=5,
        total=len(record["moves"]),
        runs=1,
    )
    Analysis.objects.filter(pk=analysis.pk).update(
        updated_at=timezone.now() - services.STALE - timedelta(seconds=1)
    )
    services.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE and analysis.runs == 2
    assert analysis.result == whole


def test_a_live_run_is_not_doubled(garden_game):
    analysis = Analysis.objects.create(game=garden_game, status=Analysis.Status.RUNNING, runs=1)
    # Busy: the task looks again later instead of working beside the other run.
    assert services.analysis_run(analysis_id=analysis.pk) is True
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.RUNNING and analysis.runs == 1


def test_a_failed_analysis_is_queued_again_when_asked(
    garden_game, players, queued, django_capture_on_commit_callbacks
):
    analysis = Analysis.objects.create(
        game=garden_game, status=Analysis.Status.FAILED, error="boom"
    )
    again = request(garden_game, players[1], django_capture_on_commit_callbacks)
    assert again.pk == analysis.pk and again.status == Analysis.Status.QUEUED
    assert queued == [analysis.pk]


# --------------------------------------------------------------------------- over HTTP


def test_the_replay_offers_the_request_to_signed_in_visitors_only(client, garden_game, players):
    url = reverse("games:replay", args=[garden_game.pk])
    page = client.get(url).content.decode()
    assert 'id="analysis"' in page and "games/analysis.js" in page
    assert "Request analysis" not in page and "to request an analysis" in page
    client.force_login(players[2])
    assert "Request analysis" in client.get(url).content.decode()


def test_the_state_json_goes_from_none_to_done(client, garden_game, players, queued):
    state_url = reverse("analysis:state", args=[garden_game.pk])
    assert client.get(state_url).json() == {
        "status": "none", "done": 0, "total": 0, "can_request": False,
    }  # fmt: skip
    client.force_login(players[0])
    assert client.get(state_url).json()["can_request"] is True
    response = client.post(
        reverse("analysis:request", args=[garden_game.pk]), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 202 and response.json()["status"] == "queued"
    services.analysis_run(analysis_id=Analysis.objects.get().pk)
    state = client.get(state_url).json()
    assert state["status"] == "done" and state["can_request"] is False
    assert len(state["turns"]) == state["total"] == len(game_record(garden_game)["moves"])
    assert [entry["seat"] for entry in state["players"]] == [0, 1]


def test_refusals_over_http_say_why(client, players, queued):
    running = play_game(players[:2], plies=3)
    for url in (
        reverse("analysis:state", args=[running.pk]),
        reverse("analysis:request", args=[running.pk]),
    ):
        method = client.get if url.endswith(".json") else client.post
        response = method(url, HTTP_ACCEPT="application/json")
        assert response.status_code in (403, 404)
        body = response.json()
        # Nothing of the running game: the same answer as for no game.
        assert set(body) == {"error", "code"}
        assert json.dumps(body).count(str(running.pk)) == 0
    finished = play_game(players[:2], kind="wizards_garden")
    response = client.post(
        reverse("analysis:request", args=[finished.pk]), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403
    assert response.json() == {"error": "Sign in to request an analysis.", "code": "sign_in"}
    assert Analysis.objects.count() == 0 and queued == []


def test_in_the_embedded_default_the_turns_are_thought_out_in_a_thinking_process(
    garden_game, players, queued, django_capture_on_commit_callbacks
):
    from games import thinking
    from topiary_site import embedded

    runner = embedded.Runner(threads=1, thinkers=1)
    calls = []

    def think(function, *args):
        calls.append(type(args[0]).__name__)
        return runner.think(function, *args)

    analysis = request(garden_game, players[0], django_capture_on_commit_callbacks)
    try:
        thinking.offload = think
        services.analysis_run(analysis_id=analysis.pk)
    finally:
        thinking.offload = None
        runner.stop()
    analysis.refresh_from_db()
    record = game_record(garden_game)
    # One call per turn, each given the mover's view (never a full state).
    assert calls == ["View"] * len(record["moves"])
    assert analysis.status == Analysis.Status.DONE
    assert analysis.result == engine_analysis.analyse_record(record, seed=f"game/{garden_game.pk}")


def test_an_analysis_that_fails_says_so_and_may_be_asked_for_again(
    client, garden_game, players, queued, monkeypatch, django_capture_on_commit_callbacks
):
    from engine.errors import RecordError

    def broken(record):
        raise RecordError("ply 3: does not replay")

    analysis = request(garden_game, players[0], django_capture_on_commit_callbacks)
    monkeypatch.setattr(engine_analysis, "turn_views", broken)
    assert services.analysis_run(analysis_id=analysis.pk) is False
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.FAILED and "ply 3" in analysis.error
    client.force_login(players[1])
    state = client.get(reverse("analysis:state", args=[garden_game.pk])).json()
    assert state == {
        "status": "failed",
        "done": 0,
        "total": 0,
        "can_request": True,
        "error": "The analysis failed. Ask again to retry.",
    }
