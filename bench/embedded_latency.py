"""How promptly the embedded default answers one game while strong bots think at others.

Starts the site as ``make run`` does (the Procfile's ``web`` alone: SQLite, in-memory
channel layer, no Redis, no worker) from a source tree, then:

1. *quiet*: two people play a 2-player game (10+5) move after move; each step times
   a GET of the game's state, a websocket ``ping`` answered by ``pong`` and a move
   POSTed over HTTP;
2. *loaded*: the same, while ``--tables`` other players each sit at a 4-player table
   with three strong bots (``BOT_BUDGET`` seconds per bot move, so about 3 s of
   thinking per round) and move at once whenever it is their turn again.

``--root`` serves another checkout, to compare with the code before a change:

    git archive edae102 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
    .venv/bin/python bench/embedded_latency.py --root /tmp/before
    .venv/bin/python bench/embedded_latency.py

Prints one JSON object: latency percentiles in milliseconds per phase and kind.
A benchmark, never a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.machine import describe  # noqa: E402
from tests.support import servers  # noqa: E402
from tests.support.http import Session  # noqa: E402

DEMO_PASSWORD = "topiary-demo"
PROBE_PASSWORD = "bench-probe-42"
LOAD_PLAYERS = ["alice", "bob", "carol"]

MAKE_PROBES = f"""
from accounts.models import User
for name in ("probe1", "probe2"):
    if not User.objects.filter(username=name).exists():
        User.objects.create_user(name, f"{{name}}@example.com", "{PROBE_PASSWORD}")
"""


def manage(root: Path, env: dict, *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=root, env=env, check=True, capture_output=True
    )


def signed_in(url: str, username: str, password: str) -> Session:
    session = Session(url)
    response = session.post("/accounts/login/", {"username": username, "password": password})
    if response.status != 302:
        raise RuntimeError(f"could not log in {username}: {response.status}")
    return session


def state(session: Session, game_id: int) -> dict:
    return json.loads(session.get(f"/game/{game_id}/state.json").body)


def move(session: Session, game_id: int, frame: dict, rng: random.Random) -> int:
    """POST a random legal move as JSON (the move endpoint's format), with the CSRF header."""
    body = json.dumps({"ply": frame["ply"], "move": rng.choice(frame["legal_moves"])})
    req = urllib.request.Request(
        session.base_url + f"/game/{game_id}/move",
        data=body.encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "X-CSRFToken": session.cookie("csrftoken") or "",
            "Referer": session.base_url + f"/game/{game_id}/",
        },
    )
    try:
        with session._opener.open(req, timeout=120) as resp:
            return resp.status
    except urllib.error.HTTPError as error:  # a refusal (the clock, a stale ply) is an answer
        return error.code


def new_game(url: str, first: Session, second: Session, **fields) -> int:
    created = first.post("/play/new/", {"kind": "topiary", "players": "2", **fields})
    game_id = int(created.headers["Location"].strip("/").split("/")[-1])
    second.post(f"/game/{game_id}/join", {})
    return game_id


class LoadPlayer(threading.Thread):
    """A person at a table with three strong bots, moving over the game's websocket (as
    the game page does) as soon as it is their turn again."""

    def __init__(self, url: str, username: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.url = url
        self.session = signed_in(url, username, DEMO_PASSWORD)
        self.stop = stop
        self.rng = random.Random(username)
        self.moves = 0
        self.errors: list[str] = []
        # Created here, one table after another: tables created at the same instant race
        # to create the same numbered companion bot (StrongBot2), and one of them fails.
        self.table = self.new_table()

    def new_table(self):
        created = self.session.post(
            "/play/bots/",
            {"kind": "topiary", "players": "4", "level": "strong", "time_control": "10+5"},
        )
        game_id = int(created.headers["Location"].strip("/").split("/")[-1])
        return game_id, game_socket(self.url, self.session, game_id)

    def run(self) -> None:
        try:
            self.play()
        except Exception as error:  # reported in the results, not lost with the thread
            self.errors.append(repr(error))

    def play(self) -> None:
        game_id, socket = self.table
        while not self.stop.is_set():
            drain(socket)
            frame = state(self.session, game_id)
            if frame["status"] != "active":
                socket.close()
                game_id, socket = self.new_table()
            elif frame["to_move"] == frame["you"] and frame["legal_moves"]:
                choice = self.rng.choice(frame["legal_moves"])
                socket.send(json.dumps({"type": "move", "ply": frame["ply"], "move": choice}))
                # Counted once the server has played it (never sent twice for one turn).
                while not self.stop.is_set():
                    drain(socket)
                    if state(self.session, game_id)["ply"] > frame["ply"]:
                        self.moves += 1
                        break
                    time.sleep(0.05)
            else:
                time.sleep(0.05)
        socket.close()


def game_socket(url: str, session: Session, game_id: int):
    """A websocket to the game as the session's user, past its first state frame."""
    cookie = f"sessionid={session.cookie('sessionid')}"
    ws_url = url.replace("http://", "ws://") + f"/ws/game/{game_id}/"
    socket = connect(ws_url, origin=url, additional_headers={"Cookie": cookie})
    socket.recv(timeout=60)
    return socket


def drain(socket) -> None:
    """Read every frame already received, so none piles up."""
    while True:
        try:
            socket.recv(timeout=0)
        except TimeoutError:
            return


def probe(url: str, seconds: float, rng: random.Random) -> dict[str, list]:
    """Time socket openings, state GETs, ping-pongs and moves of 2-player games."""
    players = [signed_in(url, name, PROBE_PASSWORD) for name in ("probe1", "probe2")]
    timings: dict[str, list] = {"connect": [], "state": [], "ping": [], "move": []}
    failures: list[str] = []

    def open_socket(game_id: int):
        while True:
            start = time.perf_counter()
            try:
                socket = game_socket(url, players[0], game_id)
            except Exception as error:  # the server did not answer the handshake in time
                failures.append(f"connect: {error!r}")
                continue
            timings["connect"].append(time.perf_counter() - start)
            return socket

    game_id = new_game(url, *players, time_control="10+5")
    socket = open_socket(game_id)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.perf_counter()
        frame = state(players[0], game_id)
        timings["state"].append(time.perf_counter() - start)

        drain(socket)
        start = time.perf_counter()
        socket.send(json.dumps({"type": "ping"}))
        while json.loads(socket.recv(timeout=60)).get("type") != "pong":
            pass
        timings["ping"].append(time.perf_counter() - start)

        if frame["status"] != "active":
            socket.close()
            game_id = new_game(url, *players, time_control="10+5")
            socket = open_socket(game_id)
            continue
        mover = players[frame["to_move"]]
        their = state(mover, game_id)
        start = time.perf_counter()
        move(mover, game_id, their, rng)
        timings["move"].append(time.perf_counter() - start)
        time.sleep(0.1)
    socket.close()
    timings["failures"] = failures
    return timings


def summary(values: list[float]) -> dict:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return {"n": 0}
    pick = lambda q: round(ms[min(len(ms) - 1, int(q * len(ms)))], 1)  # noqa: E731
    return {
        "n": len(ms),
        "median": round(statistics.median(ms), 1),
        "p90": pick(0.9),
        "p99": pick(0.99),
        "max": round(ms[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="source tree to serve")
    parser.add_argument("--tables", type=int, default=3, choices=[1, 2, 3])
    parser.add_argument("--seconds", type=float, default=40.0, help="probing time per phase")
    parser.add_argument("--budget", type=float, default=1.0, help="BOT_BUDGET, seconds")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="embedded-latency-"))
    env = {
        "SQLITE_PATH": str(work / "site.sqlite3"),
        "BOT_BUDGET": str(args.budget),
        "DATABASE_URL": "",
        "REDIS_URL": "",
        "SECRET_KEY": "",
        "DEBUG": "",
        "PYTHONUNBUFFERED": "1",
    }
    full_env = {**os.environ, **env}
    manage(args.root, full_env, "migrate", "--noinput")
    manage(args.root, full_env, "seed_demo")
    manage(args.root, full_env, "shell", "-c", MAKE_PROBES)

    servers.ROOT = args.root  # the Procfile and working directory of the tree measured
    web, url = servers.start_web(env, work)
    rng = random.Random(7)
    try:
        quiet = probe(url, args.seconds, rng)
        stop = threading.Event()
        load = [LoadPlayer(url, name, stop) for name in LOAD_PLAYERS[: args.tables]]
        for player in load:
            player.start()
        time.sleep(3)  # the bots are thinking by now
        loaded = probe(url, args.seconds, rng)
        stop.set()
        for player in load:
            player.join(timeout=30)
    finally:
        web.stop()
    print(
        json.dumps(
            {
                "benchmark": "embedded_latency",
                "root": str(args.root),
                "tables_of_strong_bots": args.tables,
                "bot_budget_s": args.budget,
                "load_player_moves": sum(p.moves for p in load),
                "load_errors": [e for p in load for e in p.errors],
                "quiet_failures": quiet.pop("failures"),
                "loaded_failures": loaded.pop("failures"),
                "quiet_ms": {kind: summary(v) for kind, v in quiet.items()},
                "loaded_ms": {kind: summary(v) for kind, v in loaded.items()},
                "machine": describe(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
