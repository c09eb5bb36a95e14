"""Bot moves per worker core, at each bot level (docs/BENCHMARKS.md, "Bot capacity").

``python bench/bot_load.py`` (``make bench-bots``) starts the Procfile's ``bots`` worker
(the queue bot turns run on) and ``worker`` (scoring) with production settings on
PostgreSQL and Redis, creates games in which two house bots of one level play each
other, and lets the ``bots`` worker play them: every bot move is one task that chooses
the move from the bot's own view, plays it through the one writer, pushes the frames and
queues the next bot turn, as in a game against a person. After a warm-up it counts the
moves played in ``--seconds`` and the CPU of the ``bots`` processes (the parent and its
pool) and of the PostgreSQL server (all of it: nothing else should use it meanwhile) per
move.

``--concurrency 1`` is one pool process, so at most one core: its moves/s is what one
worker core plays at that level. ``--concurrency 1 2`` runs both, one after the other.
The searching levels think their own time a decision (strong 0.2 s, master 1 s, as in
production) unless ``--budget`` sets ``BOT_BUDGET`` for both, so they play about 5 and 1
decisions per second per process whatever the machine.

Environment: ``BENCH_DATABASE_URL`` (a database whose name ends in ``bench``; dropped and
created afresh for every run), ``BENCH_REDIS_URL`` (its queues ``bots`` and ``celery``
are emptied before each run). ``--root DIR`` benchmarks another checkout.
Never part of the test suite: the figures depend on the machine (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from live_load import (  # noqa: E402
    CLOCK_TICKS,
    bench_urls,
    cpu_seconds,
    database_fresh,
    django_ready,
    group_cpu,
    processes_where,
    production_env,
    redis_cpu,
    set_up_in_child,
    start,
    stat_fields,
    stop,
)

#: Games started per level and pool process: enough that the queue never runs dry
#: before the measurement ends (a Topiary game against itself is about 30 bot moves).
GAMES_PER_PROCESS = {"random": 300, "greedy": 200, "strong": 12, "master": 4}


def games_create(kind: str, level: str, count: int) -> list[int]:
    """``count`` games of ``kind`` between two bots of ``level``; each game's first bot
    turn is queued as the game starts (the worker is not running yet)."""
    from games import services

    first = services.bot_pick(level)
    second = services.bot_pick(level, besides=[first])
    return [
        services.game_create(
            kind=kind,
            players=[first, second],
            options={},
            rated=False,
            clock_initial=1800,
            clock_increment=10,
            correspondence_days=None,
        ).pk
        for _ in range(count)
    ]


def postmaster_pid(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url) as conn:
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    return int(stat_fields(backend)[1])


def postgres_cpu(postmaster: int) -> float:
    """CPU of the whole PostgreSQL server so far: the postmaster, its live processes, and
    those that ended (counted to the postmaster once reaped). Backends that live for one
    task, as a worker's used to, are counted too."""
    fields = stat_fields(postmaster)
    total = sum(int(value) for value in fields[11:15]) / CLOCK_TICKS
    return total + sum(cpu_seconds(pid) for pid in processes_where(1, postmaster))


def plies_and_finished(database_url: str, game_ids: list[int]) -> tuple[int, int]:
    """(moves played in ``game_ids`` so far, how many of them are finished)."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT COALESCE(SUM(ply), 0), COUNT(*) FILTER (WHERE status = 'finished') "
            "FROM games_game WHERE id = ANY(%s)",
            (game_ids,),
        ).fetchone()
    return int(row[0]), int(row[1])


def queues_empty(redis_url: str) -> None:
    """Drop tasks a run before left in the broker's queues (their games are gone)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.delete("bots", "celery", "unacked", "unacked_index")


def run_level(args, root: Path, level: str, concurrency: int) -> dict:
    database_url, redis_url = bench_urls()
    database_fresh(database_url)
    queues_empty(redis_url)
    env = production_env(
        database_url,
        redis_url,
        PORT="0",
        **({"BOT_BUDGET": str(args.budget)} if args.budget else {}),
        BOT_CONCURRENCY=str(concurrency),
        CELERY_CONCURRENCY="1",
    )
    count = args.games or GAMES_PER_PROCESS[level] * concurrency
    game_ids = set_up_in_child(__file__, root, f"{args.kind}:{level}:{count}", env)
    procs = {name: start(root, name, env, args.logs) for name in ("bots", "worker")}
    try:
        time.sleep(args.warmup)
        postmaster = postmaster_pid(database_url)

        def sample() -> dict:
            plies, finished = plies_and_finished(database_url, game_ids)
            return {
                "at": time.monotonic(),
                "plies": plies,
                "finished": finished,
                "bots": group_cpu(procs["bots"].pid),
                "postgres": postgres_cpu(postmaster),
                "redis": redis_cpu(redis_url),
            }

        before = sample()
        time.sleep(args.seconds)
        after = sample()
    finally:
        for proc in procs.values():
            stop(proc)
    moves = after["plies"] - before["plies"]
    elapsed = after["at"] - before["at"]
    per_move = {
        name: round((after[name] - before[name]) * 1000 / max(moves, 1), 2)
        for name in ("bots", "postgres", "redis")
    }
    return {
        "kind": args.kind,
        "level": level,
        "pool_processes": concurrency,
        "budget_s": args.budget,
        "games": count,
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "moves_per_s_per_process": round(moves / elapsed / concurrency, 1),
        "cpu_ms_per_move": per_move,
        "bots_cpu_share": round((after["bots"] - before["bots"]) / elapsed, 2),
        "games_finished": [before["finished"], after["finished"]],
        # The queue ran dry if fewer games than pool processes were left in play.
        "queue_ran_dry": count - after["finished"] < concurrency,
        "load_average": [round(load, 2) for load in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["random", "greedy", "strong", "master"])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1])
    parser.add_argument("--kind", default="topiary")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument(
        "--budget", type=float, help="BOT_BUDGET: seconds for every searching level"
    )
    parser.add_argument("--games", type=int, help="games per run (default: per level)")
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--logs", type=Path, default=Path("/tmp/topiary-bot-load"))
    parser.add_argument("--setup", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setup:
        django_ready(args.root.resolve(), {})
        kind, level, count = args.setup.split(":")
        print(json.dumps(games_create(kind, level, int(count))))
        return
    args.logs.mkdir(parents=True, exist_ok=True)
    from bench.machine import describe

    print(json.dumps({"machine": describe()}), flush=True)
    for level in args.levels:
        for concurrency in args.concurrency:
            print(json.dumps(run_level(args, args.root.resolve(), level, concurrency)), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    main()
