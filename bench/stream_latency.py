"""How soon a Bot API stream brings a move, against the game's websocket (issue 40).

``python bench/stream_latency.py --samples 40`` starts the Procfile's ``web``, ``worker``
and ``bots`` with production settings (DEBUG off) on PostgreSQL and Redis, makes the
players and games through the ORM, and measures two things, each move seen at once by a
websocket of the game (as the game page opens it) and by the NDJSON game stream
(``GET /api/games/<id>/stream``) of the same player:

1. *socket move*: a person moves over their websocket; the time until the ``move``
   frame reaches the opponent's socket and the opponent's stream;
2. *house bot answer*: an outside BOT account POSTs its move (``/api/games/<id>/move``);
   the time until the house bot's answer (RandomBot, moved by the ``bots`` worker) reaches
   the bot's socket and its stream.

Wizards' Garden games (one ply per turn), correspondence time, played one after another
until each measure has ``--samples`` samples; every player waits ``--think`` seconds
before moving. Also counted: plies a stream skipped (a ``move`` frame more than one ply
after the frame before it) and ``state`` frames that moved the ply (resyncs).

``--root DIR`` serves another checkout of the project (the same database schema), to
compare with the code before a change:

    git archive main | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    .venv/bin/python bench/stream_latency.py --root /tmp/before

Environment: ``BENCH_DATABASE_URL`` (a database whose name ends in ``bench``; dropped and
created afresh), ``BENCH_REDIS_URL``. Prints a table and one JSON object (milliseconds).
A benchmark, never a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.live_load import (  # noqa: E402
    bench_urls,
    database_fresh,
    django_ready,
    free_port,
    production_env,
    start,
    stop,
    wait_listening,
    wait_ready,
)
from bench.machine import describe  # noqa: E402


def api_headers(secret: str) -> dict[str, str]:
    # Production settings redirect plain HTTP to HTTPS unless a proxy says it was HTTPS.
    return {"Authorization": f"Bearer {secret}", "X-Forwarded-Proto": "https"}


class Reader(threading.Thread):
    """Frames of one game as one viewer receives them, each with the moment it came."""

    def __init__(self, name: str):
        super().__init__(daemon=True, name=name)
        self.frames: list[tuple[float, dict]] = []
        self.changed = threading.Condition()
        self.skipped = 0
        self.resyncs = 0
        self.error: Exception | None = None

    def arrived(self, frame: dict) -> None:
        if frame.get("type") not in ("state", "move"):
            return
        with self.changed:
            if self.frames:
                before = self.frames[-1][1]["ply"]
                if frame["type"] == "move" and frame["ply"] > before + 1:
                    self.skipped += frame["ply"] - before - 1
                if frame["type"] == "state" and frame["ply"] > before:
                    self.resyncs += 1
            self.frames.append((time.perf_counter(), frame))
            self.changed.notify_all()

    def first(self, ply: int, timeout: float = 60) -> tuple[float, dict]:
        """The first frame at ``ply`` or later: when it came, and the frame."""
        with self.changed:
            deadline = time.monotonic() + timeout
            while True:
                found = next(((t, f) for t, f in self.frames if f["ply"] >= ply), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.error is not None:
                    raise RuntimeError(f"{self.name}: no frame of ply {ply}: {self.error!r}")
                self.changed.wait(left)

    def latest(self) -> dict:
        with self.changed:
            return self.frames[-1][1]


class StreamReader(Reader):
    def __init__(self, base: str, game_id: int, secret: str):
        super().__init__(f"stream {game_id}")
        self.request = urllib.request.Request(
            f"{base}/api/games/{game_id}/stream", headers=api_headers(secret)
        )
        self.start()

    def run(self) -> None:
        try:
            with urllib.request.urlopen(self.request, timeout=60) as response:
                for raw in response:
                    if raw.strip():
                        self.arrived(json.loads(raw))
        except Exception as error:
            self.error = error


class SocketReader(Reader):
    def __init__(self, base: str, game_id: int, cookie: str):
        super().__init__(f"socket {game_id}")
        self.socket = connect(
            base.replace("http://", "ws://") + f"/ws/game/{game_id}/",
            origin=base,
            additional_headers={"Cookie": cookie},
        )
        self.start()

    def run(self) -> None:
        try:
            for text in self.socket:
                self.arrived(json.loads(text))
        except Exception as error:
            self.error = error

    def send(self, message: dict) -> None:
        self.socket.send(json.dumps(message))

    def close(self) -> None:
        self.socket.close()


# --------------------------------------------------------------------------- set-up (ORM)


def players_make() -> dict:
    """Two people and an outside BOT account: cookies for their sockets, API secrets."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from api import services as api_services

    users = get_user_model().objects
    made = {}
    for name, scopes in (("ann", ["play"]), ("ben", ["play"]), ("outside", ["bot:play"])):
        user = users.create_user(f"{name}{random.randrange(10**6)}", password=None)
        _, secret = api_services.token_create(user=user, name="bench", scopes=scopes)
        if name == "outside":
            user = api_services.bot_account_upgrade(user=user)
        client = Client()
        client.force_login(user)
        made[name] = {
            "user": user,
            "secret": secret,
            "cookie": f"sessionid={client.cookies['sessionid'].value}",
        }
    return made


def game_new(players: list) -> int:
    from django.db import connection

    from games import services

    game = services.game_create(
        kind="wizards_garden",
        players=players,
        options={},
        rated=False,
        clock_initial=None,
        clock_increment=None,
        correspondence_days=1,
        first_player=0,
    )
    connection.close()
    return game.pk


def post_move(base: str, secret: str, game_id: int, ply: int, move: str) -> None:
    request = urllib.request.Request(
        f"{base}/api/games/{game_id}/move",
        data=json.dumps({"ply": ply, "move": move}).encode(),
        method="POST",
        headers={**api_headers(secret), "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60):
        pass


# --------------------------------------------------------------------------- the measures


def socket_moves(base: str, made: dict, samples: int, think: float, rng) -> dict:
    """Ben moves on his socket; Ann's socket and Ann's stream receive the move."""
    times: dict[str, list[float]] = {"socket": [], "stream": []}
    counts = {"skipped": 0, "resyncs": 0}
    while len(times["socket"]) < samples:
        game_id = game_new([made["ann"]["user"], made["ben"]["user"]])
        ann_socket = SocketReader(base, game_id, made["ann"]["cookie"])
        ann_stream = StreamReader(base, game_id, made["ann"]["secret"])
        ben_socket = SocketReader(base, game_id, made["ben"]["cookie"])
        ply = 0
        while len(times["socket"]) < samples:
            frame = ben_socket.first(ply)[1]
            if frame["status"] != "active":
                break
            time.sleep(think)
            mover = ann_socket if frame["to_move"] == 0 else ben_socket
            steps = mover.first(ply)[1]["legal_steps"]
            sent = time.perf_counter()
            mover.send({"type": "move", "ply": ply, "move": rng.choice(steps)})
            if mover is ben_socket:
                times["socket"].append(ann_socket.first(ply + 1)[0] - sent)
                times["stream"].append(ann_stream.first(ply + 1)[0] - sent)
            else:
                ann_stream.first(ply + 1)
            ply += 1
        counts["skipped"] += ann_stream.skipped
        counts["resyncs"] += ann_stream.resyncs
        for socket in (ann_socket, ben_socket):
            socket.close()
    return {"times": times, **counts}


def house_bot_answers(base: str, made: dict, samples: int, think: float, rng) -> dict:
    """The outside bot POSTs its move; its socket and its stream receive the house bot's
    answer."""
    from accounts.services import bot_ensure

    house = bot_ensure(level="random")
    outside = made["outside"]
    times: dict[str, list[float]] = {"socket": [], "stream": []}
    counts = {"skipped": 0, "resyncs": 0}
    while len(times["socket"]) < samples:
        game_id = game_new([outside["user"], house])
        socket = SocketReader(base, game_id, outside["cookie"])
        stream = StreamReader(base, game_id, outside["secret"])
        ply = 0
        while len(times["socket"]) < samples:
            frame = stream.first(ply)[1]
            if frame["status"] != "active":
                break
            if frame["to_move"] != 0:
                ply += 1
                continue
            time.sleep(think)
            sent = time.perf_counter()
            post_move(base, outside["secret"], game_id, ply, rng.choice(frame["legal_steps"]))
            if stream.first(ply + 1)[1]["status"] != "active":
                break  # that move ended the game: no answer
            times["stream"].append(stream.first(ply + 2)[0] - sent)
            times["socket"].append(socket.first(ply + 2)[0] - sent)
            ply += 2
        counts["skipped"] += stream.skipped
        counts["resyncs"] += stream.resyncs
        socket.close()
    return {"times": times, **counts}


def summary(times: list[float]) -> dict:
    ms = sorted(t * 1000 for t in times)
    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 1),
        "p90": round(ms[int(0.9 * (len(ms) - 1))], 1),
        "max": round(ms[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40, help="moves measured per measure")
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each move")
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout served")
    options = parser.parse_args()
    database_url, redis_url = bench_urls()
    database_fresh(database_url)
    env = production_env(database_url, redis_url)
    django_ready(HERE.parent, env)
    made = players_make()
    port = free_port()
    logs = Path(tempfile.mkdtemp(prefix="stream-latency-"))
    processes = [start(options.root.resolve(), "web", {**env, "PORT": str(port)}, logs)]
    try:
        for worker in ("worker", "bots"):
            processes.append(
                start(options.root.resolve(), worker, {**env, "PORT": str(port)}, logs)
            )
        base = f"http://127.0.0.1:{port}"
        wait_listening(port, processes[0])
        for worker in ("worker", "bots"):
            wait_ready(logs, worker)
        rng = random.Random(40)
        results = {
            "socket move": socket_moves(base, made, options.samples, options.think, rng),
            "house bot answer": house_bot_answers(base, made, options.samples, options.think, rng),
        }
    finally:
        for process in processes:
            stop(process)
    report = {"machine": describe(), "root": str(options.root), "samples": options.samples}
    print("| measure | received by | n | p50 ms | p90 ms | max ms | plies skipped | resyncs |")
    print("|---|---|---|---|---|---|---|---|")
    for measure, result in results.items():
        report[measure] = {"skipped": result["skipped"], "resyncs": result["resyncs"]}
        for path, times in result["times"].items():
            row = summary(times)
            report[measure][path] = row
            extra = f"{result['skipped']} | {result['resyncs']}" if path == "stream" else "- | -"
            print(
                f"| {measure} | {path} | {row['n']} | {row['p50']} | {row['p90']} | {row['max']}"
                f" | {extra} |"
            )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
