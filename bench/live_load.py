"""Live play under load: move round trips, moves/s and server CPU per move (issue 12).

``python bench/live_load.py --games 10 50`` (``make bench-live``) starts the Procfile's
web (uvicorn), worker(s) and beat with production settings (DEBUG off, SECRET_KEY,
ALLOWED_HOSTS) on PostgreSQL and Redis, creates N 2-player Topiary games through the
ORM, and drives them with websocket clients written from docs/PROTOCOL.md: each player
thinks 0.3 s, sends its move and waits for the ``move`` frame. In the same run a bare
``websockets`` echo server is driven with the same pattern (a pair of sockets per
game, each message sent to both, both closed and a new pair opened every 16 plies as a
game ends) as the floor of what the machine can do; and once more with pairs that never
close, as up to the twelfth round (``echo_steady_p99_ms``).

Reported per size: move round trip p50/p99 (send to the mover's own ``move`` frame),
moves/s, server CPU per move (the web process + the PostgreSQL backends of the bench database
+ the Redis server, from /proc and INFO; Redis is machine-wide), sockets that failed
to connect, and the echo's p99; round trips also by where the move falls in its game
(first, last, the rest); and the cores the web processes and the clients (this process)
used. Loopback only; every loop is bounded by the run time.
``--web 2`` runs two web processes behind the same Redis (pairs split between them);
``--web 1 2`` runs one, then two, for each size in the same script run.
``--web-cores 0.5`` holds each web process to half a core (a CPU cgroup each, as root), so that
one process against two compares processes with shares of their own rather than two
cores already full with the clients, PostgreSQL and Redis.
``--idle 3600`` instead holds one socket per player open for an hour sending nothing
(pushed frames are read) and reports how many the server kept open and the close codes.
``--spread 0.5`` draws each think time uniformly from 0.3 s x [0.5, 1.5] (the same mean)
instead of a fixed 0.3 s, for the site's clients and the echo's alike: with a fixed think
every game of a run starts, and so ends, within moments of the others, a burst of game
ends, page closes and page opens every 16 plies that a crowd of real players spreads out.
``--churn 30`` instead opens, reads the snapshot of, and closes each player's socket 30
times, and reports CPU per cycle (what a page's arrival and departure cost).

``--layer pubsub`` runs the site on channels_redis's ``RedisPubSubChannelLayer`` instead of
ours (``TOPIARY_CHANNEL_LAYER``; bench/layer_compare.py alternates the two).
``--own-redis`` runs a redis-server of the run's own, so that Redis's CPU and its command
count (``redis_commands_per_move``; per minute in ``--idle``) are the run's alone;
``--no-echo`` skips the echo floor; ``--per-pair`` sets the games made per pair.

Environment: ``BENCH_DATABASE_URL`` (a database whose name ends in ``bench``; dropped
and created afresh, from ``BENCH_DATABASE_TEMPLATE`` if set), ``BENCH_REDIS_URL``
(flushed only with ``--flush-redis``).
``--root DIR`` benchmarks another checkout of the project (a before/after comparison).
Never part of the test suite: the figures depend on the machine (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import closing, suppress
from pathlib import Path
from urllib.parse import urlparse, urlunparse

HERE = Path(__file__).resolve().parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def procfile(root: Path) -> dict[str, str]:
    commands = {}
    for line in (root / "Procfile").read_text().splitlines():
        match = re.match(r"^([a-z][a-z0-9_-]*):\s*(.+)$", line.strip())
        if match:
            commands[match[1]] = match[2]
    return commands


def start(root: Path, process: str, env: dict, logs: Path) -> subprocess.Popen:
    log = (logs / f"{process}.log").open("wb")
    bin_dir = Path(sys.executable).parent
    return subprocess.Popen(
        ["bash", "-c", "exec " + procfile(root)[process]],
        cwd=root,
        env={**os.environ, **env, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


#: Where ``--web-cores`` makes each web process a CPU cgroup of its own (cgroup v1).
CPU_CGROUPS = Path("/sys/fs/cgroup/cpu")
CGROUP_PERIOD_US = 100_000


class CpuQuota:
    """A CPU cgroup holding processes to ``cores`` cores' worth of time (``cpu.cfs_quota_us``):
    with one per web process, N processes get N shares of the machine, whatever else runs on it,
    so that whether a second process doubles the first is not decided by two cores
    shared with the clients, PostgreSQL, Redis and the workers."""

    def __init__(self, name: str, cores: float):
        self.path = CPU_CGROUPS / f"topiary-bench-{name}-{os.getpid()}"
        try:
            self.path.mkdir()
            (self.path / "cpu.cfs_period_us").write_text(str(CGROUP_PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(int(cores * CGROUP_PERIOD_US)))
        except OSError as error:
            message = f"--web-cores needs a writable {CPU_CGROUPS} (root): {error}"
            raise SystemExit(message) from None

    def hold(self, pid: int) -> None:
        # cgroup.procs moves every thread of the process; threads started later follow it.
        (self.path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        with suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                (CPU_CGROUPS / "cgroup.procs").write_text(pid)
            self.path.rmdir()


def wait_ready(logs: Path, process: str, timeout: float = 90) -> None:
    """Until the Celery worker ``process`` (its log in ``logs``) says it is ready: its
    start-up would otherwise be counted as work done during the run."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in (logs / f"{process}.log").read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the {process} worker never said it was ready")


def wait_listening(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def stat_fields(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the process's name (state, parent, group,
    ...); FileNotFoundError once the process is gone."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (all its threads) so far."""
    try:
        fields = stat_fields(pid)
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def processes_where(field: int, value: int) -> list[int]:
    """The live processes whose ``/proc/PID/stat`` field (counted after the name) is
    ``value``: 1 the parent, 2 the process group."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_fields(stat.parent.name)
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[field]) == value:
            pids.append(int(stat.parent.name))
    return pids


def group_cpu(leader: int) -> float:
    """CPU so far of the live processes of the process group ``leader`` started (a
    Celery worker and its pool)."""
    return sum(cpu_seconds(pid) for pid in processes_where(2, leader))


# --------------------------------------------------------------------------- set-up


def database_fresh(url: str) -> None:
    """Drop and create the bench database; a copy of ``BENCH_DATABASE_TEMPLATE`` if that is
    set (a database migrated once by bench/layer_compare.py: a run's migrate is then quick)."""
    import psycopg

    name = urlparse(url).path.lstrip("/")
    if not name.endswith("bench"):
        raise SystemExit(f"refusing to drop {name!r}: BENCH_DATABASE_URL must name a *bench db")
    admin = urlunparse(urlparse(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        template = os.environ.get("BENCH_DATABASE_TEMPLATE")
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))


def django_ready(root: Path, env: dict) -> None:
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "topiary_site.settings"
    sys.path.insert(0, str(root))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def bench_urls() -> tuple[str, str]:
    """(``BENCH_DATABASE_URL``, ``BENCH_REDIS_URL``), or their defaults."""
    return (
        os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topiary_bench"),
        os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
    )


def production_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The Procfile processes' environment: production settings on these servers."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TOPIARY_CHANNEL_LAYER": os.environ.get("TOPIARY_CHANNEL_LAYER", "ours"),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def set_up_in_child(script: str, root: Path, setup: str, env: dict[str, str], *extra: str):
    """What ``script --setup SETUP --root ROOT`` prints last, as JSON: Django is configured
    once per process, with that root's code, so the set-up runs in a child."""
    done = subprocess.run(
        [sys.executable, script, "--setup", setup, "--root", str(root), *extra],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def games_create(pairs: int, per_pair: int) -> list[dict]:
    """Per pair of players: their session cookies and the ids of the games they will play."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    users = get_user_model().objects
    tag = secrets.token_hex(3)
    out = []
    for index in range(pairs):
        players = [users.create_user(f"b{tag}{index}x{seat}", password=None) for seat in range(2)]
        cookies = []
        for user in players:
            client = Client()
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        games = [
            services.game_create(
                kind="topiary",
                players=players,
                options={},
                rated=False,
                clock_initial=1800,
                clock_increment=10,
                correspondence_days=None,
                first_player=0,
            ).pk
            for _ in range(per_pair)
        ]
        out.append({"cookies": cookies, "games": games})
    from django.db import connection

    connection.close()
    return out


def backend_pids(database_url: str) -> list[int]:
    import psycopg

    name = urlparse(database_url).path.lstrip("/")
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return [row[0] for row in rows]


def redis_cpu(redis_url: str) -> float:
    import redis

    info = redis.Redis.from_url(redis_url).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def redis_commands(redis_url: str) -> int:
    """Commands the Redis server has run so far (this very INFO among them)."""
    import redis

    return int(redis.Redis.from_url(redis_url).info("stats")["total_commands_processed"])


# --------------------------------------------------------------------------- the clients


class Tally:
    def __init__(self):
        self.rtts: list[float] = []
        self.moves = 0
        self.connect_failures = 0
        self.resyncs = 0
        self.refused: dict[str, int] = {}
        self.connect_s: list[float] = []
        self.measuring = False
        #: The Redis restart run: players reconnect and resend like the page does.
        self.reconnect = False
        self.reconnects = 0
        #: (pair, when) of every move measured: a pair is known by its first game id.
        self.completed: list[tuple[int, float]] = []
        #: Round trips by where the move falls: a game's first, its last (ending it), the rest.
        self.phases: dict[str, list[float]] = {"first": [], "middle": [], "last": []}


def order(frame: dict) -> tuple[int, int]:
    return frame.get("takebacks") or 0, frame.get("ply") or 0


async def game_socket(url: str, origin: str, cookie: str, game_id: int):
    """A player's socket of a game, as its page opens it."""
    from websockets.asyncio.client import connect

    return await connect(
        f"{url}/ws/game/{game_id}/",
        additional_headers={"Origin": origin, "Cookie": cookie},
        open_timeout=60,
        max_size=None,
    )


#: The game page's heartbeat (static/games/game.js): a ping every 20 s.
HEARTBEAT = 20


async def player(url: str, origin: str, cookie: str, game_ids, think, deadline, tally, ready):
    """One player's page: plays its games in turn, following PROTOCOL.md's keeping in step;
    ``think()`` is how long to think before each move.

    ``deadline["at"]`` is when to stop (moved to "now" when the measurement ends). With
    ``tally.reconnect`` (the Redis restart run) it also behaves like the page across a
    fault: a socket that closes is opened again with the page's backoff, a move that got
    no answer is sent again, and a ping goes out every HEARTBEAT seconds.
    """

    first = True
    for game_id in game_ids:
        if time.monotonic() >= deadline["at"]:
            return
        snapshot = None
        sent_at = None
        resend = False
        mover = None
        delay = 0.5
        finished = False
        while not finished and time.monotonic() < deadline["at"]:
            connect_started = time.monotonic()
            try:
                ws = await game_socket(url, origin, cookie, game_id)
            except Exception as error:
                if tally.reconnect and not first:
                    tally.reconnects += 1
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 10)
                    continue
                tally.connect_failures += 1
                tally.refused[f"connect: {error!r}"[:80]] = 1
                if first:
                    ready.release()
                return
            tally.connect_s.append(time.monotonic() - connect_started)
            delay = 0.5
            pinged = time.monotonic()
            try:
                while time.monotonic() < deadline["at"]:
                    if tally.reconnect and time.monotonic() - pinged >= HEARTBEAT:
                        pinged = time.monotonic()
                        await ws.send(json.dumps({"type": "ping"}))
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 5)
                    except TimeoutError:
                        continue
                    frame = json.loads(raw)
                    frame_type = frame["type"]
                    if first and frame_type == "state":
                        # The measurement starts once every first socket has its snapshot
                        # (a server may accept a socket before its database work is done).
                        ready.release()
                        first = False
                    if frame_type in ("state", "move"):
                        if (
                            snapshot is not None
                            and frame_type == "move"
                            and order(frame) > order(snapshot)
                            and frame["ply"] != snapshot["ply"] + 1
                        ):
                            tally.resyncs += 1
                            await ws.send(json.dumps({"type": "resync"}))
                            continue
                        if snapshot is None or order(frame) >= order(snapshot):
                            snapshot = frame
                        if sent_at is not None and snapshot["ply"] > sent_at[1]:
                            if tally.measuring:
                                rtt = time.monotonic() - sent_at[0]
                                tally.rtts.append(rtt)
                                phase = (
                                    "first"
                                    if sent_at[1] == 0
                                    else "middle"
                                    if snapshot["status"] == "active"
                                    else "last"
                                )
                                tally.phases[phase].append(rtt)
                                tally.moves += 1
                                tally.completed.append((game_ids[0], time.monotonic()))
                            sent_at = None
                            resend = False
                    elif frame_type == "refused":
                        sent_at = None
                        code = frame.get("code")
                        tally.refused[code] = tally.refused.get(code, 0) + 1
                        if snapshot is None or frame.get("ply") != snapshot["ply"]:
                            tally.resyncs += 1
                            await ws.send(json.dumps({"type": "resync"}))
                        continue
                    elif (
                        frame_type in ("presence", "pong")
                        and snapshot
                        and order(frame) > order(snapshot)
                    ):
                        tally.resyncs += 1
                        await ws.send(json.dumps({"type": "resync"}))
                        continue
                    if snapshot is None or snapshot["status"] != "active":
                        if snapshot is not None and snapshot["status"] in ("finished", "aborted"):
                            finished = True
                            break
                        continue
                    mine = snapshot["to_move"] == snapshot["you"]
                    idle = mover is None or mover.done()
                    if mine and (sent_at is None or resend) and idle:
                        ply, moves = snapshot["ply"], snapshot["legal_moves"]
                        # A move sent again after a fault keeps the time it was first sent.
                        since = sent_at[0] if sent_at is not None and sent_at[1] == ply else None
                        resend = False

                        async def move_later(ws=ws, ply=ply, moves=moves, since=since):
                            nonlocal sent_at
                            if since is None:
                                await asyncio.sleep(think())
                            sent_at = (since or time.monotonic(), ply)
                            move = moves[ply % len(moves)]
                            await ws.send(json.dumps({"type": "move", "ply": ply, "move": move}))

                        mover = asyncio.ensure_future(move_later())
            except Exception as error:
                if not tally.reconnect:
                    if first:  # never to be measured: do not hold the start up
                        ready.release()
                    raise
                tally.reconnects += 1
                tally.refused[f"closed: {type(error).__name__}"] = 1
                # Whatever was in flight: the next snapshot says whether it was played.
                snapshot = None
                resend = sent_at is not None
                await asyncio.sleep(delay)
            finally:
                if mover is not None:
                    mover.cancel()
                await ws.close()


async def drive_site(servers, pairs, think, seconds, sample, fault=None, split=False) -> dict:
    """Play every pair's games; pair i talks to ``servers[i % len(servers)]`` (url, origin),
    or with ``split`` its two players to two servers (as a balancer without stickiness may
    place them: every move then crosses between processes through Redis).

    ``fault``: a coroutine function run once the measurement starts (the Redis restart);
    what it returns is reported, with how long the games took to move again after it.
    """
    tally = Tally()
    tally.reconnect = fault is not None
    ready = asyncio.Semaphore(0)
    deadline = {"at": time.monotonic() + 3600}  # brought forward when the measurement ends

    async def run_player(index, pair, seat):
        url, origin = servers[(index + (seat if split else 0)) % len(servers)]
        await player(
            url,
            origin,
            pair["cookies"][seat],
            pair["games"],
            think,
            deadline,
            tally,
            ready,
        )

    tasks = []
    for index, pair in enumerate(pairs):
        for seat in range(2):
            tasks.append(asyncio.ensure_future(run_player(index, pair, seat)))
    for _ in range(len(tasks)):
        await ready.acquire()
    # Every first socket has its first snapshot: measure from now for ``seconds``.
    before = sample()
    started = time.monotonic()
    tally.measuring = True
    faulted = asyncio.ensure_future(fault()) if fault is not None else None
    await asyncio.sleep(seconds)
    tally.measuring = False
    elapsed = time.monotonic() - started
    after = sample()
    deadline["at"] = time.monotonic()
    await asyncio.wait(tasks, timeout=15)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out = {"tally": tally, "elapsed": elapsed, "cpu": {k: after[k] - before[k] for k in after}}
    if faulted is not None:
        fault_times = await faulted
        out["fault"] = {**fault_times, **recovery(tally.completed, fault_times)}
    return out


def recovery(completed: list[tuple[int, float]], fault: dict) -> dict:
    """How long games that were moving before the fault took to move again.

    A game counts if one of its moves completed in the 10 s before the fault began;
    ``back_s`` is from the service being back to the game's next completed move, ``gap_s``
    the longest time the game went without a completed move across the fault.
    """
    down, back = fault["down_at"], fault["back_at"]
    before: dict[int, float] = {}
    after: dict[int, float] = {}
    for game_id, at in completed:
        if down - 10 <= at <= down:
            before[game_id] = max(before.get(game_id, at), at)
        elif at > down and game_id not in after:
            after[game_id] = at
    backs = sorted(after[g] - back for g in before if g in after)
    gaps = sorted(after[g] - before[g] for g in before if g in after)
    return {
        "games_moving_before": len(before),
        "games_not_moving_again": sum(1 for g in before if g not in after),
        "back_p50_s": round(percentile(backs, 0.5) or 0, 2),
        "back_max_s": round(backs[-1], 2) if backs else None,
        "gap_p50_s": round(percentile(gaps, 0.5) or 0, 2),
        "gap_max_s": round(gaps[-1], 2) if gaps else None,
    }


class OwnRedis:
    """A redis-server of the run's own on a free port, to stop and start (``--redis-restart``)."""

    def __init__(self, logs: Path):
        self.port = free_port()
        self.logs = logs
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.logs),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_listening(self.port, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)


def redis_restart(redis: OwnRedis, after: float, down: float):
    """The fault of ``--redis-restart``: Redis stops ``after`` s in, for ``down`` s."""

    async def fault() -> dict:
        await asyncio.sleep(after)
        down_at = time.monotonic()
        await asyncio.to_thread(redis.stop)
        await asyncio.sleep(down)
        await asyncio.to_thread(redis.start)
        back_at = time.monotonic()
        return {"redis_down_s": round(back_at - down_at, 2), "down_at": down_at, "back_at": back_at}

    return fault


async def drive_idle(url, origin, pairs, seconds, sample) -> dict:
    """Open every player's socket of its first game and send nothing for ``seconds``.

    Frames the server pushes are read (as a page would); a socket the server closes
    is counted with its close code and when it closed. What the idle sockets cost is
    sampled from when every socket is open: the web process's and Redis's CPU and the
    commands Redis ran, per minute (with ``--own-redis`` Redis's figures are the run's
    alone).
    """

    closed: dict[str, int] = {}
    first_close = {"at": None}
    failures = 0
    opened = asyncio.Semaphore(0)
    started = time.monotonic()

    async def hold(cookie: str, game_id: int) -> bool:
        nonlocal failures
        try:
            ws = await game_socket(url, origin, cookie, game_id)
        except Exception:
            failures += 1
            opened.release()
            return False
        opened.release()
        try:
            while time.monotonic() - started < seconds:
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except TimeoutError:
                    continue
        except Exception:
            code = str(ws.close_code)
            closed[code] = closed.get(code, 0) + 1
            if first_close["at"] is None:
                first_close["at"] = round(time.monotonic() - started, 1)
            return False
        await ws.close()
        return True

    holds = [
        asyncio.ensure_future(hold(pair["cookies"][seat], pair["games"][0]))
        for pair in pairs
        for seat in range(2)
    ]
    for _ in holds:
        await opened.acquire()
    # Past the sockets' opening: their snapshots and group joins are not idle work.
    await asyncio.sleep(5)
    before, measured_from = sample(), time.monotonic()
    held = await asyncio.gather(*holds)
    after, minutes = sample(), (time.monotonic() - measured_from) / 60
    per_minute = {
        name: round(
            (after[name] - before[name]) * (1 if name == "redis_commands" else 1000) / minutes, 1
        )
        for name in ("web", "redis", "redis_commands")
    }
    return {
        "idle_s": seconds,
        # CPU in ms per minute, Redis's commands per minute, over the idle time measured.
        "idle_per_minute": {
            "web_cpu_ms": per_minute["web"],
            "redis_cpu_ms": per_minute["redis"],
            "redis_commands": per_minute["redis_commands"],
            "minutes": round(minutes, 2),
        },
        "sockets": len(held),
        "open_at_end": sum(held),
        "connect_failures": failures,
        "closed_by_code": closed,
        "first_close_s": first_close["at"],
    }


# --------------------------------------------------------------------------- the echo floor


async def echo_server(port: int) -> None:
    from websockets.asyncio.server import serve

    rooms: dict[str, set] = {}

    async def handler(ws):
        room = rooms.setdefault(ws.request.path, set())
        room.add(ws)
        try:
            async for message in ws:
                for other in list(room):
                    with suppress(Exception):
                        await other.send(message)
        finally:
            room.discard(ws)

    async with serve(handler, "127.0.0.1", port, max_size=None):
        await asyncio.Future()


#: Plies of one of the benchmark's games (its players' moves always end it there).
GAME_PLIES = 16


async def drive_echo(
    url: str, pairs: int, think, seconds: float, plies: int | None = GAME_PLIES
) -> list[float]:
    """Round trips of the echo, with the site's clients' pattern: a pair of sockets per
    game, each message sent by one and received by both, after a think; and, with
    ``plies``, every ``plies`` messages both sockets close and a new pair opens (the
    site's players close a finished game's page and open the next), so the clients' own
    cost of those waves is in the floor too. ``plies=None``: one pair for the whole run."""
    from websockets.asyncio.client import connect

    rtts: list[float] = []
    stop_at = time.monotonic() + seconds

    async def both_receive(sockets, sent_ply: int) -> bool:
        """Both sockets got the message of ``sent_ply``; False if it was not seen in time."""
        try:
            for ws in sockets:
                while json.loads(await asyncio.wait_for(ws.recv(), 5))["ply"] != sent_ply:
                    pass
        except TimeoutError:
            return False
        return True

    async def game(index: int, number: int) -> None:
        """One game's pair of sockets, until ``plies`` messages (or the run) are done."""
        room = f"{url}/pair/{index}/{number}"
        sockets = [await connect(room, open_timeout=60) for _ in range(2)]
        ply = 0
        try:
            # Until both sockets are in the room, a message reaches only one of them.
            while time.monotonic() < stop_at:
                ply -= 1
                await sockets[0].send(json.dumps({"ply": ply}))
                if await both_receive(sockets, ply):
                    break
            ply = 0
            while time.monotonic() < stop_at and (plies is None or ply < plies):
                await asyncio.sleep(think())
                ply += 1
                sent = time.monotonic()
                await sockets[ply % 2].send(json.dumps({"ply": ply, "pad": "x" * 1500}))
                if await both_receive(sockets, ply):
                    rtts.append(time.monotonic() - sent)
        finally:
            for ws in sockets:
                await ws.close()

    async def pair(index: int) -> None:
        number = 0
        while time.monotonic() < stop_at:
            await game(index, number)
            number += 1

    await asyncio.gather(*(pair(i) for i in range(pairs)), return_exceptions=True)
    return rtts


async def drive_churn(url, origin, pairs, cycles, sample) -> dict:
    """Every player opens its first game's socket, waits for the snapshot and closes it,
    ``cycles`` times, all players at once: what a page's arrival and departure cost the
    server (a run of games opens and closes two sockets per game, in bursts)."""
    times: list[float] = []

    async def churn(cookie: str, game_id: int) -> None:
        for _ in range(cycles):
            started = time.monotonic()
            ws = await game_socket(url, origin, cookie, game_id)
            while json.loads(await ws.recv())["type"] != "state":
                pass
            await ws.close()
            times.append(time.monotonic() - started)

    before = sample()
    await asyncio.gather(
        *(churn(pair["cookies"][seat], pair["games"][0]) for pair in pairs for seat in range(2))
    )
    after = sample()
    count = max(len(times), 1)
    cpu = {name: round((after[name] - before[name]) * 1000 / count, 2) for name in after}
    clients = cpu.pop("clients")
    cpu.pop("redis_commands")
    cpu["total"] = round(sum(cpu.values()), 2)
    return {
        "cycles": len(times),
        "clients_cpu_ms_per_cycle": clients,
        "cycle_p50_p99_ms": [ms(percentile(times, 0.5)), ms(percentile(times, 0.99))],
        "cpu_ms_per_cycle": cpu,
    }


def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


# --------------------------------------------------------------------------- one run


def think_time(args):
    """How long a player thinks before each move: ``--think`` seconds, or with ``--spread``
    a draw around it (seeded: every run draws the same sequence of times)."""
    if not args.spread:
        return lambda: args.think
    draws = random.Random(12)
    return lambda: args.think * (1 + args.spread * (2 * draws.random() - 1))


def run_size(args, root: Path, games: int, web_count: int = 1) -> dict:
    database_url, redis_url = bench_urls()
    own_redis = None
    if args.redis_restart or args.own_redis:
        own_redis = OwnRedis(args.logs)
        own_redis.start()
        redis_url = own_redis.url
    port = free_port()
    env = production_env(
        database_url,
        redis_url,
        SECURE_SSL_REDIRECT="0",
        PORT=str(port),
        HOST="127.0.0.1",
        CELERY_BEAT_SCHEDULE_FILENAME=str(args.logs / f"beat-{port}"),
    )
    try:
        database_fresh(database_url)
        if args.flush_redis:
            import redis

            redis.Redis.from_url(redis_url).flushdb()
        per_pair = ("--per-pair", str(args.per_pair)) if args.per_pair else ()
        pairs = set_up_in_child(__file__, root, str(games), env, *per_pair)
    except BaseException:
        if own_redis is not None:  # a failed set-up leaves no server of its own running
            own_redis.stop()
        raise
    # An idle hold needs no workers; without them it can share a Redis db with a bench run
    # (set CHANNEL_PREFIX / CACHE_PREFIX apart) without either's workers taking the other's tasks.
    processes = [
        name
        for name in ("worker", "bots", "mining", "beat")
        if name in procfile(root) and not (args.idle or args.churn)
    ]
    procs = {name: start(root, name, env, args.logs) for name in processes}
    # ``--web N``: N web processes on ports of their own, sharing the Redis layer.
    ports = [port, *(free_port() for _ in range(web_count - 1))]
    webs = [start(root, "web", {**env, "PORT": str(each)}, args.logs) for each in ports]
    procs.update({f"web{index}": web for index, web in enumerate(webs)})
    quotas = []
    echo_port = free_port()
    echo = subprocess.Popen([sys.executable, __file__, "--echo-server", str(echo_port)])
    try:
        # Inside the try: a cgroup that cannot be made still stops every process started.
        for index, web in enumerate(webs):
            if args.web_cores:
                quotas.append(CpuQuota(f"web{index}", args.web_cores))
                quotas[-1].hold(web.pid)
        for each, web in zip(ports, webs, strict=True):
            wait_listening(each, web)
        wait_listening(echo_port, echo)
        # Beat says nothing when ready; mining runs niced in the background and may take
        # a while to start on a busy machine, while the games need it for nothing.
        for name in processes:
            if name not in ("beat", "mining"):
                wait_ready(args.logs, name)
        web_pids = [web.pid for web in webs]
        # The workers (scoring, bots, mining) and beat: reported beside the server CPU per
        # move, and mining's share on its own (its worker runs niced).
        workers = [procs[name] for name in processes]
        backends = backend_pids(database_url)

        def sample() -> dict:
            nonlocal backends
            backends = sorted(set(backends) | set(backend_pids(database_url)))
            cpu = {
                "web": sum(cpu_seconds(pid) for pid in web_pids),
                "postgres": sum(cpu_seconds(pid) for pid in backends),
                "redis": redis_cpu(redis_url),
                "redis_commands": redis_commands(redis_url),
                # This very process is the load generator: every client socket runs here.
                "clients": time.process_time(),
            }
            if workers:
                cpu["workers"] = sum(group_cpu(proc.pid) for proc in workers)
            if "mining" in procs:
                cpu["mining"] = group_cpu(procs["mining"].pid)
            return cpu

        if args.churn:
            return {
                "games": games,
                "root": str(root),
                "layer": args.layer,
                **asyncio.run(
                    drive_churn(
                        f"ws://127.0.0.1:{port}",
                        f"http://127.0.0.1:{port}",
                        pairs,
                        args.churn,
                        sample,
                    )
                ),
            }
        if args.idle:
            return {
                "games": games,
                "root": str(root),
                "layer": args.layer,
                **asyncio.run(
                    drive_idle(
                        f"ws://127.0.0.1:{port}",
                        f"http://127.0.0.1:{port}",
                        pairs,
                        args.idle,
                        sample,
                    )
                ),
            }
        site = asyncio.run(
            drive_site(
                [(f"ws://127.0.0.1:{each}", f"http://127.0.0.1:{each}") for each in ports],
                pairs,
                think_time(args),
                args.seconds,
                sample,
                None
                if not args.redis_restart
                else redis_restart(own_redis, args.seconds / 3, args.redis_restart),
                split=args.split,
            )
        )
        echo_rtts = echo_steady_rtts = []
        if not args.no_echo:
            echo_rtts = asyncio.run(
                drive_echo(f"ws://127.0.0.1:{echo_port}", games, think_time(args), args.seconds)
            )
            # As every round up to the twelfth measured it: the pairs never close.
            echo_steady_rtts = asyncio.run(
                drive_echo(
                    f"ws://127.0.0.1:{echo_port}", games, think_time(args), args.seconds, plies=None
                )
            )
    finally:
        echo.terminate()
        echo.wait()
        for proc in procs.values():
            stop(proc)
        for quota in quotas:
            quota.remove()
        if own_redis is not None:
            own_redis.stop()
    tally = site["tally"]
    moves = max(tally.moves, 1)
    commands = site["cpu"].pop("redis_commands")
    if args.redis_restart:
        # A restarted Redis counts its CPU and commands from zero: no figure of the run's.
        site["cpu"].pop("redis")
        commands = None
    cpu = {name: round(seconds * 1000 / moves, 2) for name, seconds in site["cpu"].items()}
    workers_cpu = cpu.pop("workers", None)
    mining_cpu = cpu.pop("mining", None)
    cpu.pop("clients", None)
    cpu["total"] = round(sum(cpu.values()), 2)
    return {
        "games": games,
        "root": str(root),
        "layer": args.layer,
        "web_processes": web_count,
        "web_cores_each": args.web_cores,
        # The web processes' CPU over the run, in cores: what they had to play with.
        "web_cores_used": round(site["cpu"]["web"] / site["elapsed"], 2),
        # The clients share the machine with the server: what they took of its cores.
        "clients_cores_used": round(site["cpu"]["clients"] / site["elapsed"], 2),
        "think_s": [args.think, args.spread],
        "split": bool(args.split and web_count > 1),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / site["elapsed"], 1),
        "rtt_p50_ms": ms(percentile(tally.rtts, 0.5)),
        "rtt_p99_ms": ms(percentile(tally.rtts, 0.99)),
        "rtt_max_ms": ms(max(tally.rtts) if tally.rtts else None),
        # Where the slow round trips fall: every game of a run starts (and so ends) within
        # moments of the others, so a game's first and last moves come in bursts, with
        # the sockets of the games just ended closing and the next games' opening.
        "rtt_p50_p99_ms_by_phase": {
            phase: [ms(percentile(rtts, 0.5)), ms(percentile(rtts, 0.99)), len(rtts)]
            for phase, rtts in tally.phases.items()
        },
        "cpu_ms_per_move": cpu,
        "redis_commands_per_move": None if commands is None else round(commands / moves, 2),
        # Not in the total (the server CPU is the web process's, PostgreSQL's and
        # Redis's): the scorings of the games that ended, per move played.
        "workers_cpu_ms_per_move": workers_cpu,
        # Of which the niced mining worker's (finished games mined for puzzles).
        "mining_cpu_ms_per_move": mining_cpu,
        "connect_failures": tally.connect_failures,
        "resyncs": tally.resyncs,
        "refused": tally.refused,
        "connect_p50_p99_s": [
            round(percentile(tally.connect_s, 0.5) or 0, 2),
            round(percentile(tally.connect_s, 0.99) or 0, 2),
        ],
        "reconnects": tally.reconnects,
        **({"redis_restart": site["fault"]} if "fault" in site else {}),
        "echo_p50_ms": ms(percentile(echo_rtts, 0.5)),
        "echo_p99_ms": ms(percentile(echo_rtts, 0.99)),
        "echo_steady_p99_ms": ms(percentile(echo_steady_rtts, 0.99)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="draw each think time from think x [1 - spread, 1 + spread] (0: always think)",
    )
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--logs", type=Path, default=Path("/tmp/topiary-live-load"))
    parser.add_argument("--flush-redis", action="store_true")
    parser.add_argument(
        "--web",
        type=int,
        nargs="+",
        default=[1],
        help="web processes (one Redis); several counts are run one after the other per size",
    )
    parser.add_argument(
        "--web-cores",
        type=float,
        help="hold each web process to this many cores (a CPU cgroup each; needs root)",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="with several web processes, put each game's two players on different ones",
    )
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        help="instead of playing, open each player's socket, take its snapshot and close it, "
        "this many times; report CPU per cycle",
    )
    parser.add_argument(
        "--idle",
        type=float,
        help="hold every socket open, sending nothing, for this many seconds; count closes",
    )
    parser.add_argument(
        "--redis-restart",
        type=float,
        help="run a Redis of its own and stop it for this many seconds a third of the way "
        "in; report how long games took to move again (players reconnect like the page)",
    )
    parser.add_argument(
        "--layer",
        choices=["ours", "ours-redis-py", "pubsub"],
        default=os.environ.get("TOPIARY_CHANNEL_LAYER", "ours"),
        help="the channel layer the site runs on (TOPIARY_CHANNEL_LAYER): ours "
        "(kit.channel_layer) or channels_redis's RedisPubSubChannelLayer",
    )
    parser.add_argument(
        "--own-redis",
        action="store_true",
        help="run a redis-server of the run's own (its CPU and commands are then the run's alone)",
    )
    parser.add_argument(
        "--no-echo", action="store_true", help="skip the echo server's floor (saves 2 x --seconds)"
    )
    parser.add_argument(
        "--per-pair",
        type=int,
        help="games made per pair (default 3 + seconds / 4; at 500 games a pair plays ~3 a minute)",
    )
    parser.add_argument("--setup", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--echo-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ["TOPIARY_CHANNEL_LAYER"] = args.layer
    if args.echo_server:
        asyncio.run(echo_server(args.echo_server))
        return
    if args.setup:
        django_ready(args.root.resolve(), {})
        # Enough games per pair that no pair runs out within the run (a game is 16 plies).
        per_pair = args.per_pair or 3 + int(args.seconds // 4)
        print(json.dumps(games_create(args.setup, per_pair)))
        return
    args.logs.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE.parent))
    from bench.machine import describe

    print(json.dumps({"machine": describe()}), flush=True)
    for games in args.games:
        for web in args.web:
            print(json.dumps(run_size(args, args.root.resolve(), games, web)), flush=True)


if __name__ == "__main__":
    main()
