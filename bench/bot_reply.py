"""How long a person waits for the strong bot's reply on the game page (issue 46: "a strong
reply within 0.6 s at the median").

``python bench/bot_reply.py --games 8`` starts the Procfile's ``web`` (uvicorn), ``bots``
and ``worker`` with production settings on PostgreSQL and Redis (as bench/live_load.py
does), with ``BOT_BUDGET`` unset so that the bot thinks its level's own seconds (strong
0.2 s a decision). One signed-in person plays ``--games`` 2-player Topiary games against
the house bot of ``--level`` over the game socket (docs/PROTOCOL.md), one game at a time,
alternately moving first and second, thinking ``--think`` seconds before each step and
sending a seeded random legal step (a take is two steps, as on the page).

A reply is timed from sending the step that hands the turn to the bot until the frame
that hands it back (or ends the game): the whole reply, both decisions and plies of a
bot's take. Reported: median, p90, max and count, over all replies and by the bot's
decisions in it (1: a turn without a take, 2: with one). Replies before the person's
first step (the bot opening a game) are not timed.

Environment: ``BENCH_DATABASE_URL`` (a database whose name ends in ``bench``; dropped and
created afresh), ``BENCH_REDIS_URL`` (its ``bots`` and ``celery`` queues are emptied).
Never part of the test suite: the figures depend on the machine (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bot_load import queues_empty  # noqa: E402
from live_load import (  # noqa: E402
    bench_urls,
    database_fresh,
    django_ready,
    free_port,
    game_socket,
    percentile,
    production_env,
    set_up_in_child,
    start,
    stop,
    wait_listening,
    wait_ready,
)


class ReplyClock:
    """Times the bot's replies from the frames one person's socket accepts.

    ``sent(ply, at)`` when the person sends a step for ``ply`` (a step is one ply);
    ``seen(frame, at)`` for every accepted ``state``/``move`` frame returns ``(seconds,
    decisions)`` when the frame hands the turn back after the bot's reply (or ends the
    game in it), else None. A step that leaves the person's take pending, or ends the
    game, starts no reply.
    """

    def __init__(self):
        self.waiting: tuple[float, int] | None = None  # (when sent, the ply after the step)

    def sent(self, ply: int, at: float) -> None:
        self.waiting = (at, ply + 1)

    def seen(self, frame: dict, at: float) -> tuple[float, int] | None:
        if self.waiting is None or frame["ply"] < self.waiting[1]:
            return None
        when, bot_ply = self.waiting
        back = frame["status"] != "active" or frame["to_move"] == frame["you"]
        if not back:
            return None
        self.waiting = None
        return None if frame["ply"] == bot_ply else (at - when, frame["ply"] - bot_ply)


async def play_game(url: str, origin: str, cookie: str, game_id: int, think, pick) -> list:
    """One game to its end; the bot's replies in it, as ``(seconds, decisions)``."""
    replies = []
    clock = ReplyClock()
    snapshot = None
    ws = await game_socket(url, origin, cookie, game_id)
    try:
        while snapshot is None or snapshot["status"] == "active":
            raw = await asyncio.wait_for(ws.recv(), 60)
            at = time.monotonic()
            frame = json.loads(raw)
            if frame["type"] not in ("state", "move"):
                if frame["type"] == "refused":
                    raise RuntimeError(f"refused: {frame}")
                continue
            if snapshot is not None and frame["ply"] <= snapshot["ply"]:
                continue  # no takebacks here: an older or equal ply is known already
            if (
                snapshot is not None
                and frame["type"] == "move"
                and frame["ply"] > snapshot["ply"] + 1
            ):
                await ws.send(json.dumps({"type": "resync"}))  # a frame went missing
                continue
            snapshot = frame
            reply = clock.seen(frame, at)
            if reply is not None:
                replies.append(reply)
            if frame["status"] == "active" and frame["to_move"] == frame["you"]:
                await asyncio.sleep(think)
                step = pick(frame["legal_steps"])
                clock.sent(frame["ply"], time.monotonic())
                await ws.send(json.dumps({"type": "move", "ply": frame["ply"], "move": step}))
    finally:
        await ws.close()
    return replies


def games_create(level: str, count: int) -> dict:
    """A person (their session cookie) and ``count`` 2-player Topiary games against the
    house bot of ``level``, the person moving first in the even ones."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services

    person = get_user_model().objects.create_user("replybench", password=None)
    client = Client()
    client.force_login(person)
    bot = services.bot_pick(level)
    games = [
        services.game_create(
            kind="topiary",
            players=[person, bot],
            options={},
            rated=False,
            clock_initial=1800,
            clock_increment=10,
            correspondence_days=None,
            first_player=index % 2,
        ).pk
        for index in range(count)
    ]
    return {"cookie": f"sessionid={client.cookies['sessionid'].value}", "games": games}


def summary(values: list[float]) -> dict:
    return {
        "count": len(values),
        "median_s": round(percentile(values, 0.5), 3) if values else None,
        "p90_s": round(percentile(values, 0.9), 3) if values else None,
        "max_s": round(max(values), 3) if values else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each step")
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--logs", type=Path, default=Path("/tmp/topiary-bot-reply"))
    parser.add_argument("--setup", help=argparse.SUPPRESS)
    args = parser.parse_args()
    root = args.root.resolve()
    if args.setup:
        django_ready(root, {})
        level, count = args.setup.split(":")
        print(json.dumps(games_create(level, int(count))))
        return
    if os.environ.get("BOT_BUDGET"):
        parser.error("unset BOT_BUDGET: the bot must think its level's own seconds")
    args.logs.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE.parent))
    from bench.machine import describe

    database_url, redis_url = bench_urls()
    database_fresh(database_url)
    queues_empty(redis_url)
    port = free_port()
    env = production_env(
        database_url,
        redis_url,
        SECURE_SSL_REDIRECT="0",
        PORT=str(port),
        HOST="127.0.0.1",
        BOT_CONCURRENCY="1",
        CELERY_CONCURRENCY="1",
    )
    setup = set_up_in_child(__file__, root, f"{args.level}:{args.games}", env)
    before = describe()
    procs = {name: start(root, name, env, args.logs) for name in ("web", "bots", "worker")}
    try:
        wait_listening(port, procs["web"])
        for name in ("bots", "worker"):
            wait_ready(args.logs, name)
        pick = random.Random(46).choice
        replies = []
        for game_id in setup["games"]:
            replies += asyncio.run(
                play_game(
                    f"ws://127.0.0.1:{port}",
                    f"http://127.0.0.1:{port}",
                    setup["cookie"],
                    game_id,
                    args.think,
                    pick,
                )
            )
    finally:
        for proc in procs.values():
            stop(proc)
    print(
        json.dumps(
            {
                "level": args.level,
                "games": args.games,
                "think_s": args.think,
                "replies": summary([seconds for seconds, _ in replies]),
                "every_reply_s": [round(seconds, 3) for seconds, _ in replies],
                "by_decisions": {
                    str(n): summary([seconds for seconds, d in replies if d == n])
                    for n in sorted({d for _, d in replies})
                },
                "machine_before": before,
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
