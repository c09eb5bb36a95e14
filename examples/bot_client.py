"""A complete Topiary Online bot in one file: Python's standard library and our rules engine.

It listens to its account's event stream, accepts every challenge, and plays each of
its games in a thread: it reads the game's NDJSON stream (its own seat's view) and,
whenever it is to move, rebuilds that view with the site's own rules engine (the
``engine`` package of this repository, which must be importable: run it from a checkout)
and posts the step the engine's bot of the chosen level picks. A lost connection is
retried after a pause. Replace ``choose`` with your engine.

    TOPIARY_URL=https://topiary.example TOPIARY_TOKEN=tpy_... python bot_client.py --level strong
"""

import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's engine/
from engine.bots import LEVELS, choose_move
from engine.games import view_from_json
from engine.rng import Rng

SITE = os.environ.get("TOPIARY_URL", "http://127.0.0.1:8000").rstrip("/")
TOKEN = os.environ["TOPIARY_TOKEN"]
# Stop after this many finished games (0: play forever).
MAX_GAMES = int(os.environ.get("TOPIARY_MAX_GAMES", "0"))
finished = threading.Semaphore(0)
options = argparse.Namespace(level="greedy", budget=1.0)


def call(method, path, body=None):
    """One request with the token; raises urllib.error.HTTPError on a refusal."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        SITE + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    return urllib.request.urlopen(request, timeout=60)


def post(path, body=None):
    with call("POST", path, body if body is not None else {}) as response:
        return json.load(response)


def stream(path):
    """The JSON objects of an NDJSON stream, skipping the blank keep-alive lines."""
    with call("GET", path) as response:
        for raw in response:
            if raw.strip():
                yield json.loads(raw)


def choose(frame):
    """The engine bot's step (a Topiary take and its plant are two steps) for the view the
    frame shows: its ``position`` is this seat's view, hidden tiles as ``?``."""
    view = view_from_json(frame["kind"], frame["position"], frame["you"])
    rng = Rng(f"{frame['game']}/{frame['ply']}/{time.time_ns()}")
    return choose_move(view, options.level, rng=rng, budget=options.budget)


def play(game_id):
    """Play one game to its end, reconnecting to its stream if the connection drops."""
    while True:
        try:
            for frame in stream(f"/api/games/{game_id}/stream"):
                if frame.get("type") == "error":
                    print(f"game {game_id}: {frame['message']}", file=sys.stderr)
                    return
                if frame["status"] in ("finished", "aborted"):
                    if frame["status"] == "aborted" or frame["result"] is not None:
                        print(f"game {game_id} over: {frame['result']}", flush=True)
                        finished.release()
                        return
                    continue
                if frame["to_move"] == frame["you"] and frame["legal_steps"]:
                    move = {"ply": frame["ply"], "move": choose(frame)}
                    try:
                        post(f"/api/games/{game_id}/move", move)
                    except urllib.error.HTTPError as refusal:
                        # Stale or duplicate after a reconnect: the stream brings the news.
                        print(f"game {game_id}: {json.load(refusal)}", file=sys.stderr)
        except (OSError, ValueError) as error:
            print(f"game {game_id}: {error}; reconnecting", file=sys.stderr)
            time.sleep(2)


def listen():
    """Answer the account's events forever, reconnecting when the stream drops."""
    started = set()
    while True:
        try:
            for event in stream("/api/stream/event"):
                if event["type"] == "challenge":
                    challenge = event["challenge"]
                    try:
                        post(f"/api/challenges/{challenge['id']}/accept")
                    except urllib.error.HTTPError as refusal:
                        print(f"challenge {challenge['id']}: {json.load(refusal)}", file=sys.stderr)
                elif event["type"] == "gameStart" and event["game"]["id"] not in started:
                    started.add(event["game"]["id"])
                    threading.Thread(target=play, args=(event["game"]["id"],), daemon=True).start()
        except (OSError, ValueError) as error:
            print(f"event stream: {error}; reconnecting", file=sys.stderr)
            time.sleep(2)


def main():
    parser = argparse.ArgumentParser(description="A Topiary Online bot.")
    parser.add_argument("--level", choices=LEVELS, default="greedy", help="engine bot level")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds a strong move takes")
    parser.parse_args(namespace=options)
    with call("GET", "/api/account") as response:
        account = json.load(response)
    print(f"playing as {account['username']} (bot: {account['bot']})", flush=True)
    threading.Thread(target=listen, daemon=True).start()
    for _ in range(MAX_GAMES or sys.maxsize):
        finished.acquire()


if __name__ == "__main__":
    main()
