"""The embedded default's runner: tasks off the caller's thread, beat once per database,
and never where production's worker and beat do the work."""

import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from tests.site.conftest import clean_env, manage, probe
from tests.support import servers
from tests.support.http import Session
from topiary_site import beat, embedded
from topiary_site.celery import app as celery_app

PROBE = """
import json, threading
import topiary_site.asgi
from topiary_site import embedded
from games import thinking
print(json.dumps({
    "runner": embedded.running() is not None,
    "bots_think_apart": thinking.offload is not None,
    "threads": sorted(t.name for t in threading.enumerate()),
}))
"""


def loaded_asgi_under(**env: str) -> dict:
    """What importing the ASGI application (as the web server does) starts, in a fresh process."""
    return probe(PROBE, **env)


def test_the_embedded_default_runs_beat_in_the_web_process(tmp_path):
    found = loaded_asgi_under(SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    assert found["runner"] is True
    assert "embedded-beat" in found["threads"]
    # The games app took up the runner's thinking processes (kit.signals).
    assert found["bots_think_apart"] is True


def test_with_a_broker_the_web_process_leaves_jobs_to_celery(tmp_path):
    found = loaded_asgi_under(
        SQLITE_PATH=str(tmp_path / "db.sqlite3"), REDIS_URL="redis://127.0.0.1:6379/15"
    )
    assert found["runner"] is False
    assert "embedded-beat" not in found["threads"]
    assert found["bots_think_apart"] is False


def test_two_web_processes_on_one_database_run_the_schedule_once(tmp_path):
    env = {
        "SQLITE_PATH": str(tmp_path / "site.sqlite3"),
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "SECRET_KEY": "",
        "DEBUG": "",
        "PYTHONUNBUFFERED": "1",
    }
    first, _ = servers.start_web(env, tmp_path)
    try:
        first.wait_for_log("embedded: beat runs")
        second, _ = servers.start_web(env, tmp_path)
        try:
            second.wait_for_log("another process runs the schedule")
            assert "embedded: beat runs" not in second.log()
        finally:
            second.stop()
    finally:
        first.stop()


@celery_app.task(name="tests.site.wait_for_release")
def wait_for_release(started: list, release_key: str) -> None:
    started.append(threading.current_thread().name)
    RELEASES[release_key].wait(10)


RELEASES: dict[str, threading.Event] = {}


def test_a_task_runs_on_the_pool_and_delay_returns_at_once(monkeypatch):
    runner = embedded.Runner(threads=1)
    monkeypatch.setattr(embedded, "_runner", runner)
    started: list[str] = []
    RELEASES["one"] = threading.Event()
    try:
        # Without a runner this would run here and block for ten seconds.
        wait_for_release.delay(started, "one")
        assert threading.current_thread().name not in started
        RELEASES["one"].set()
        runner.pool.shutdown(wait=True)
        assert started and started[0].startswith("embedded-task")
    finally:
        RELEASES["one"].set()
        runner.stop()


@celery_app.task(name="tests.site.note_the_time")
def note_the_time(times: list) -> None:
    times.append(time.monotonic())
    RELEASES["noted"].set()


def test_a_task_sent_with_a_countdown_waits_for_it(monkeypatch):
    # As Celery's worker does: a house bot answers an outside bot's challenge only after
    # HOUSE_BOT_ANSWER_DELAY seconds under ``make run`` too (docs/API.md).
    runner = embedded.Runner(threads=1)
    monkeypatch.setattr(embedded, "_runner", runner)
    times: list[float] = []
    RELEASES["noted"] = threading.Event()
    try:
        sent = time.monotonic()
        note_the_time.apply_async((times,), countdown=0.5)
        assert RELEASES["noted"].wait(30)
        assert times[0] - sent >= 0.5
    finally:
        runner.stop()


def test_beat_intervals_shorten_named_entries_and_refuse_typos():
    schedule = {"tick": {"task": "a.t", "schedule": 60, "options": {"expires": 5}}}
    assert beat.with_intervals(schedule, "tick=2") == {
        "tick": {"task": "a.t", "schedule": 2.0, "options": {"expires": 5}}
    }
    assert beat.with_intervals(schedule, "") == schedule
    with pytest.raises(ValueError, match="no beat entry 'tock'"):
        beat.with_intervals(schedule, "tock=2")
    with pytest.raises(ValueError, match="positive"):
        beat.with_intervals(schedule, "tick=0")
    with pytest.raises(ValueError, match="not name=seconds"):
        beat.with_intervals(schedule, "tick=soon")


def test_bots_think_in_a_process_of_their_own_from_their_view_alone():
    from engine.bots import choose_move
    from engine.games import game_module
    from engine.rng import Rng
    from games import thinking

    module = game_module("topiary")
    state = module.new_game(module.Options(), 11)
    seat = state.to_move
    runner = embedded.Runner(threads=1, thinkers=1)
    try:
        assert runner.think(os.getpid) != os.getpid()
        thinking.offload = runner.think
        moved = thinking.bot_choose(
            view=state.view(seat),
            level="greedy",
            seed="11:0",
            budget=1.0,
        )
    finally:
        thinking.offload = None
        runner.stop()
    assert moved == choose_move(state.view(seat), "greedy", rng=Rng("11:0"), budget=1.0)


def health(url: str, path: str) -> tuple[int, dict]:
    response = Session(url, headers={"Accept": "application/json"}).get(path)
    return response.status, json.loads(response.body or b"{}")


def test_health_watches_the_embedded_task_threads_and_schedule(tmp_path):
    """Under ``make run`` beat's schedule runs in the web process: /health/beat/ and
    /health/ see it send tasks, from any web process on the database, and see it stop."""
    sqlite = tmp_path / "site.sqlite3"
    env = {
        "SQLITE_PATH": str(sqlite),
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "SECRET_KEY": "",
        "DEBUG": "",
        "PYTHONUNBUFFERED": "1",
        "BEAT_MAX_SILENCE": "30",
    }
    migrated = manage("migrate", "--noinput", env=clean_env(**env))
    assert migrated.returncode == 0, migrated.stderr
    first, url = servers.start_like_make_run(env, tmp_path)
    second = None
    try:
        first.wait_for_log("embedded: beat runs")
        status, checks = health(url, "/health/beat/")
        assert (status, checks) == (200, {"BeatLastRun()": "OK"})
        status, checks = health(url, "/health/")
        assert status == 200, checks
        assert checks["EmbeddedTasks()"] == checks["BeatLastRun()"] == "OK"

        # A schedule silent for longer than BEAT_MAX_SILENCE turns both red...
        heartbeat = Path(f"{sqlite}.beat.sent")
        long_ago = time.time() - 600
        os.utime(heartbeat, (long_ago, long_ago))
        status, checks = health(url, "/health/beat/")
        assert status == 500
        assert re.fullmatch(
            r"Unavailable: beat last sent a task \d+ seconds ago", checks["BeatLastRun()"]
        )
        assert health(url, "/health/")[0] == 500
        # ...until it sends its next task (the games sweep, every 5 s).
        deadline = time.monotonic() + 30
        while health(url, "/health/beat/")[0] != 200:
            assert time.monotonic() < deadline, "beat never sent a task again"
            time.sleep(0.5)

        # A second web process on the database, which does not run the schedule, sees it too.
        second, other_url = servers.start_like_make_run(env, tmp_path)
        second.wait_for_log("another process runs the schedule")
        status, checks = health(other_url, "/health/")
        assert status == 200, checks
    finally:
        for process in (second, first):
            if process is not None:
                process.stop()


def test_bound_to_every_interface_make_run_answers_other_machines(tmp_path):
    """``HOST=0.0.0.0 make run``: a browser on another machine, asking by a name of this
    one, gets the page, not a 400."""
    env = {
        "SQLITE_PATH": str(tmp_path / "site.sqlite3"),
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "SECRET_KEY": "",
        "DEBUG": "",
        "ALLOWED_HOSTS": "",
    }
    web, url = servers.start_like_make_run(env, tmp_path, host="0.0.0.0")
    try:
        port = url.rsplit(":", 1)[1]
        elsewhere = Session(url, headers={"Host": f"gardeners-laptop.local:{port}"})
        page = elsewhere.get("/rules/topiary/")
        assert page.status == 200, page.text[:300]
    finally:
        web.stop()
