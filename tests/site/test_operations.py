"""Operating the site (issue 23): health, metrics and logs of the real Procfile processes,
and backups restored into a fresh database."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest
import yaml
from websockets.asyncio.client import connect

from games import selectors, services
from games.models import Game
from tests.games.conftest import live_game
from tests.games.sockets import TILE, hidden_from, in_own_loop, session_cookie
from tests.site.conftest import clean_env, manage
from tests.support import servers
from tests.support.http import Session, links
from tests.support.players import create_player
from tests.support.servers import RedisServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]

#: How long to wait for a process or a state before calling the test failed (not a measure).
PATIENCE = 120
JSON = {"Accept": "application/json"}


def wait_until(probe, what: str):
    """Poll ``probe`` until it returns something true; fail after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"never {what}")


def health(url: str, path: str) -> tuple[int, dict]:
    response = Session(url, headers=JSON).get(path)
    return response.status, json.loads(response.body or b"{}")


@pytest.fixture
def own_redis(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    yield redis
    redis.stop()


def compose_healthcheck(service: str, port: int) -> list[str]:
    """The compose health check command of ``service``, aimed at ``port``."""
    compose = yaml.safe_load((servers.ROOT / "docker-compose.yml").read_text())
    kind, *command = compose["services"][service]["healthcheck"]["test"]
    assert kind == "CMD"
    return [str(servers.VENV_BIN / "python")] + [
        part.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for part in command[1:]
    ]


#: Beat's compose health check, less its leading "CMD" and "python".
SERVICES_BEAT_CHECK = ["manage.py", "health_check", "health_beat", "--no-http"]


def test_readiness_and_health_follow_redis_and_the_worker(server_env, server_logs, own_redis):
    env = {**server_env, "REDIS_URL": own_redis.url}
    web, url = servers.start_web(env, server_logs)
    worker = beat = None
    try:
        port = urlparse(url).port
        assert health(url, "/health/live/")[0] == 200
        status, ready = health(url, "/health/ready/")
        assert status == 200, ready
        assert any(name.startswith("Redis(") for name in ready)
        assert ready["ChannelLayer()"] == ready["MigrationsApplied()"] == "OK"
        healthcheck = compose_healthcheck("web", port)
        run = subprocess.run(healthcheck, capture_output=True, timeout=60, env=clean_env())
        assert run.returncode == 0, run.stderr

        # No worker, no beat yet: the site as a whole is not healthy, the web is ready.
        status, full = health(url, "/health/")
        assert status == 500
        assert "Celery workers unavailable" in next(v for k, v in full.items() if "Ping" in k)
        assert full["BeatLastRun()"] == "Unavailable: beat has not sent any task"
        not_sent = {"BeatLastRun()": "Unavailable: beat has not sent any task"}
        assert health(url, "/health/beat/") == (500, not_sent)

        worker = servers.start_worker(env, server_logs)
        beat = servers.start_beat(env, server_logs)
        wait_until(lambda: health(url, "/health/")[0] == 200, "healthy with worker and beat")
        assert health(url, "/health/beat/") == (200, {"BeatLastRun()": "OK"})
        beat_check = subprocess.run(
            [str(servers.VENV_BIN / "python"), *SERVICES_BEAT_CHECK],
            cwd=servers.ROOT,
            capture_output=True,
            timeout=60,
            env={**os.environ, **env},
        )
        assert beat_check.returncode == 0, beat_check.stdout + beat_check.stderr

        worker.stop()
        status, full = health(url, "/health/")
        assert status == 500
        assert "Celery workers unavailable" in next(v for k, v in full.items() if "Ping" in k)
        assert health(url, "/health/ready/")[0] == 200, "a web without worker still serves"
        worker = servers.start_worker(env, server_logs)
        wait_until(lambda: health(url, "/health/")[0] == 200, "healthy again with a worker")

        own_redis.stop()
        status, ready = health(url, "/health/ready/")
        assert status == 500
        assert "Unable to connect to Redis" in next(v for k, v in ready.items() if "Redis(" in k)
        assert ready["MigrationsApplied()"] == "OK"
        assert health(url, "/health/live/")[0] == 200, "the process itself is alive"
        run = subprocess.run(healthcheck, capture_output=True, timeout=60, env=clean_env())
        assert run.returncode != 0

        own_redis.start()
        wait_until(lambda: health(url, "/health/ready/")[0] == 200, "ready again with Redis")
    finally:
        for proc in (beat, worker, web):
            if proc is not None:
                proc.stop()


@pytest.fixture
def fresh_database(server_env):
    """An empty database next to the test database, dropped afterwards."""
    base = urlparse(server_env["DATABASE_URL"])
    name = base.path.lstrip("/") + "_fresh"
    admin = urlunparse(base._replace(path="/postgres"))
    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{name}"'], check=True)
    subprocess.run(["psql", admin, "-qc", f'CREATE DATABASE "{name}"'], check=True)
    yield urlunparse(base._replace(path="/" + name))
    subprocess.run(["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'])


def test_readiness_fails_while_migrations_are_pending(server_env, server_logs, fresh_database):
    env = {**server_env, "DATABASE_URL": fresh_database}
    web, url = servers.start_web(env, server_logs)
    try:
        status, ready = health(url, "/health/ready/")
        assert status == 500
        assert re.fullmatch(r"Unavailable: \d+ migrations pending", ready["MigrationsApplied()"])
        assert ready["Database(alias='default')"] == "OK"
        migrated = manage("migrate", "--noinput", env=clean_env(**env))
        assert migrated.returncode == 0, migrated.stderr
        status, ready = health(url, "/health/ready/")
        assert status == 200, ready
    finally:
        web.stop()


# ---------------------------------------------------------------------- metrics and logs

TOKEN = "metrics-token-for-tests"


def scrape(url: str) -> dict[str, float]:
    """``/metrics`` as {'name{labels}': value}."""
    response = Session(url, headers={"Authorization": f"Bearer {TOKEN}"}).get("/metrics")
    assert response.status == 200, response.text
    samples = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def sample(samples: dict[str, float], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples having these labels (others free)."""
    total = 0.0
    for key, value in samples.items():
        metric, _, rest = key.partition("{")
        if metric == name and all(f'{k}="{v}"' in rest for k, v in labels.items()):
            total += value
    return total


async def next_snapshot(ws, ply: int) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        if frame["type"] in ("state", "move") and frame["ply"] == ply:
            return frame
        assert frame["type"] != "refused", frame


async def play_over_sockets(url: str, cookies: list[str], game_id: int) -> tuple[dict, float]:
    """Both players play the game out over their sockets; the final snapshot, and the
    open sockets /metrics counted while both were connected."""
    sockets = [
        await connect(
            f"{url.replace('http', 'ws')}/ws/game/{game_id}/",
            additional_headers={"Cookie": cookie, "Origin": url},
        )
        for cookie in cookies
    ]
    latest = [await next_snapshot(ws, 0) for ws in sockets]
    open_sockets = sample(scrape(url), "topiary_open_sockets", consumer="game")
    while latest[0]["status"] == "active":
        ply, seat = latest[0]["ply"], latest[0]["to_move"]
        move = latest[seat]["legal_moves"][ply % len(latest[seat]["legal_moves"])]
        await sockets[seat].send(json.dumps({"type": "move", "ply": ply, "move": move}))
        latest = [await next_snapshot(ws, ply + 1) for ws in sockets]
    # A move after the end is refused, and counted by its code.
    await sockets[0].send(json.dumps({"type": "move", "ply": 0, "move": "x"}))
    while json.loads(await asyncio.wait_for(sockets[0].recv(), timeout=30))["type"] != "refused":
        pass
    for ws in sockets:
        await ws.close()
    return latest[0], open_sockets


def play_against_the_worker(game: Game, human) -> Game:
    """The human plays from their own view; the worker plays the bot's turns."""
    game_id = game.pk

    def humans_turn_or_over() -> Game | None:
        fresh = Game.objects.get(pk=game_id)
        return fresh if fresh.status != Game.Status.ACTIVE or not fresh.bot_to_move else None

    while True:
        game = wait_until(humans_turn_or_over, "the bot's move")
        if game.status != Game.Status.ACTIVE:
            return game
        frame = selectors.game_state_for(game.pk, human)
        services.move_play(
            game_id=game.pk, user=human, ply=frame["ply"], move=frame["legal_moves"][-1]
        )


def test_metrics_count_a_full_game_and_a_bots_thinking_and_logs_are_json_without_hidden_tiles(
    server_env, server_logs, tmp_path
):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        **server_env,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
        "METRICS_TOKEN": TOKEN,
        "LOG_FORMAT": "json",
    }
    web, url = servers.start_web(env, server_logs)
    worker = servers.start_worker(env, server_logs)
    try:
        assert Session(url).get("/metrics").status == 404
        wrong = Session(url, headers={"Authorization": "Bearer guess"}).get("/metrics")
        assert wrong.status == 404

        ann = create_player("ann", "ann@example.com")
        bob = create_player("bob", "bob@example.com")
        game = live_game([ann, bob])
        assert sample(scrape(url), "topiary_live_games", kind="topiary") == 1

        home = Session(url, headers={"X-Request-ID": "req-from-the-proxy"}).get("/")
        echoed = {name.lower(): value for name, value in home.headers.items()}
        assert echoed["x-request-id"] == "req-from-the-proxy"
        assert Session(url).get(links(home.text, "stylesheet")[0]).status == 200

        cookies = [session_cookie(ann), session_cookie(bob)]
        final, open_sockets = in_own_loop(play_over_sockets)(url, cookies, game.pk)
        assert final["status"] == "finished"
        assert open_sockets == 2
        wait_until(
            lambda: sample(scrape(url), "topiary_open_sockets", consumer="game") == 0,
            "the closed sockets uncounted",
        )
        # The worker scores a finished game (its record) after the last move's frame.
        wait_until(
            lambda: Game.objects.filter(pk=game.pk, record__isnull=False).exists(),
            "the game scored",
        )
        game.refresh_from_db()

        carol = create_player("carol", "carol@example.com")
        bot_game = services.bot_game_create(
            user=carol,
            kind="wizards_garden",
            level="greedy",
            rated=False,
            clock_initial=600,
            clock_increment=5,
            correspondence_days=None,
        )
        bot_game = play_against_the_worker(bot_game, carol)
        bot_seat = bot_game.seats.get(user__is_bot=True).index
        bot_moves = sum(1 for entry in bot_game.moves if entry["seat"] == bot_seat)
        assert bot_moves > 0

        samples = wait_until(
            lambda: (
                (s := scrape(url))
                and sample(s, "topiary_bot_think_seconds_count", level="greedy") == bot_moves
                # The last task's run time is noted just after its move is committed.
                and sample(s, "topiary_task_seconds_count", task="games.tasks.bot_move")
                >= bot_moves
                and s
            ),
            "the worker's samples on the web's page",
        )
        assert sample(samples, "topiary_moves_total", kind="topiary", by="player") == game.ply
        assert sample(samples, "topiary_moves_total", kind="wizards_garden", by="bot") == bot_moves
        assert sample(samples, "topiary_bot_think_seconds_sum", level="greedy") > 0
        assert sample(samples, "topiary_move_round_trip_seconds_count") == game.ply + 1
        assert sample(samples, "topiary_refusals_total", code="finished") == 1
        assert sample(samples, "topiary_live_games", kind="topiary") == 0
        assert (
            sample(samples, "topiary_task_seconds_count", task="games.tasks.bot_move") >= bot_moves
        )
        assert sample(samples, "topiary_task_lag_seconds_count", task="games.tasks.bot_move") >= 1
        assert sample(samples, "django_http_requests_total_by_method_total", method="GET") >= 1
        assert 'topiary_task_queue_depth{queue="celery"}' in samples
    finally:
        worker.stop()
        web.stop()

    # Logs: one JSON object per line, ids where known, and no hidden tile anywhere.
    records = []
    for proc in (web, worker):
        for line in proc.log().splitlines():
            if line.startswith("{"):
                records.append(json.loads(line))
    moves = [r for r in records if r["message"] == "move played" and r["game_id"] == game.pk]
    assert len(moves) == game.ply
    assert all(r["user_id"] in (ann.pk, bob.pk) and r["level"] == "INFO" for r in moves)
    bot_lines = [
        r for r in records if r["message"] == "move played" and r["game_id"] == bot_game.pk
    ]
    assert sum(1 for r in bot_lines if r["by"] == "bot") == bot_moves
    (request,) = [r for r in records if r.get("request_id") == "req-from-the-proxy"]
    assert (request["message"], request["path"], request["status"]) == ("GET / 200", "/", 200)
    assert request["logger"] == "topiary.requests" and request["duration_ms"] >= 0
    assert [line for line in web.log().splitlines() if not line.startswith("{")] == []

    from engine.games import game_module

    states = game_module("topiary").replay(game.record)
    ever_hidden = set().union(*(hidden_from(state.to_json(), None) for state in states))
    assert ever_hidden, "a Topiary game always has tiles face down or in hands"
    logged = "\n".join(proc.log() for proc in (web, worker))
    assert not (set(TILE.findall(logged)) & ever_hidden)


# ---------------------------------------------------------------------- backups

DEPLOY = servers.ROOT / "deploy"


def test_a_backup_restored_into_a_fresh_database_serves_the_same_games(
    server_env, server_logs, fresh_database, tmp_path
):
    ann = create_player("ann", "ann@example.com")
    bob = create_player("bob", "bob@example.com")
    game = live_game([ann, bob])
    for _ in range(4):
        frame = selectors.game_state_for(game.pk, None)
        mover = (ann, bob)[frame["to_move"]]
        own = selectors.game_state_for(game.pk, mover)
        services.move_play(game_id=game.pk, user=mover, ply=own["ply"], move=own["legal_moves"][0])
    game.refresh_from_db()

    backups = tmp_path / "backups"
    backups.mkdir()
    for old in ("topiary-20000101T000000Z.dump", "topiary-20000102T000000Z.dump"):
        (backups / old).write_text("an old dump")
    dumped = subprocess.run(
        ["sh", str(DEPLOY / "backup.sh")],
        env={
            **clean_env(),
            "DATABASE_URL": server_env["DATABASE_URL"],
            "BACKUP_DIR": str(backups),
            "BACKUP_KEEP": "2",
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert dumped.returncode == 0, dumped.stderr
    dump = Path(dumped.stdout.strip())
    # Retention: the newest two are kept, the oldest is gone; no partial file is left.
    assert sorted(path.name for path in backups.iterdir()) == sorted(
        ["topiary-20000102T000000Z.dump", dump.name]
    )

    restored = subprocess.run(
        ["sh", str(DEPLOY / "restore.sh"), str(dump)],
        env={**clean_env(), "DATABASE_URL": fresh_database},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert restored.returncode == 0, restored.stderr

    original_web, original_url = servers.start_web(server_env, server_logs)
    restored_web, restored_url = servers.start_web(
        {**server_env, "DATABASE_URL": fresh_database}, server_logs
    )
    try:
        path = f"/game/{game.pk}/state.json"
        before, after = Session(original_url).get(path), Session(restored_url).get(path)
        assert before.status == after.status == 200
        # Everything but what moves with the clock (times, clocks, time away).
        ticking = {"server_time", "clocks", "seats"}
        state, was = json.loads(after.body), json.loads(before.body)
        assert {k: v for k, v in state.items() if k not in ticking} == {
            k: v for k, v in was.items() if k not in ticking
        }
        assert [seat["username"] for seat in state["seats"]] == ["ann", "bob"]
        assert (state["ply"], len(state["moves"])) == (game.ply, 4)
        page = Session(restored_url).get(f"/game/{game.pk}/")
        assert page.status == 200 and "ann" in page.text and "bob" in page.text
        login = Session(restored_url).post(
            "/accounts/login/", {"username": "ann", "password": "garden-path-42"}
        )
        assert login.status == 302, "accounts came back too"
        assert health(restored_url, "/health/ready/")[0] == 200, "schema and migrations intact"
    finally:
        restored_web.stop()
        original_web.stop()


def test_production_answers_health_probes_over_plain_http_and_hides_metrics(
    server_env, server_logs, production_env
):
    """As compose runs it: DEBUG off, HTTPS enforced, the probes from inside on plain HTTP."""
    env = {
        **server_env,
        "DEBUG": "0",
        "SECRET_KEY": production_env["SECRET_KEY"],
        "ALLOWED_HOSTS": "topiary.example.org,127.0.0.1",
    }
    web, url = servers.start_web(env, server_logs)
    try:
        assert Session(url).get("/").status == 301, "pages still go to HTTPS"
        status, ready = health(url, "/health/ready/")
        assert status == 200, ready
        healthcheck = compose_healthcheck("web", urlparse(url).port)
        run = subprocess.run(healthcheck, capture_output=True, timeout=60, env=clean_env())
        assert run.returncode == 0, run.stderr
        # No METRICS_TOKEN configured: nobody gets the metrics, over HTTP or HTTPS.
        for headers in ({}, {"X-Forwarded-Proto": "https", "Authorization": "Bearer "}):
            assert Session(url, headers=headers).get("/metrics").status == 404
    finally:
        web.stop()
