"""How long choosing the next training puzzle takes with 100,000 puzzles (issue 44).

``python bench/puzzle_next.py --puzzles 100000 --seen 5000`` fills a fresh PostgreSQL
database with ``--puzzles`` training puzzles (ratings normal around 1500, sd 350, clipped to
600-2600; themes drawn at random; nine in ten Topiary, one in ten Wizards' Garden), then
times ``puzzles.training_selectors.stream_next`` (what ``/puzzles/train/`` and
``GET /api/puzzles/next`` run: the own-ending check, then the walk outwards from the
target rating) for:

- a player who has seen nothing;
- a player who has answered the ``--seen`` puzzles *nearest their rating* (the worst case:
  the walk must step over all of them), at each difficulty, and with a theme.

Each case is timed ``--calls`` times (p50 / p95 / max in milliseconds, Python and round
trips included); beside it, the median of PostgreSQL's own execution time of the walk
(EXPLAIN ANALYZE, 20 runs). Prints the query plan of the walk and one JSON object;
``--reuse`` times again on the database the last run filled. Environment:
``BENCH_DATABASE_URL`` (a database whose name ends in ``bench``, dropped and created
afresh; default ``topiary_puzzles_bench``).
A benchmark, never a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.live_load import database_fresh, django_ready  # noqa: E402
from bench.machine import describe  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/topiary_puzzles_bench"
TOPIARY_THEMES = ["type-bonus", "hand-points", "blocking", "take-and-plant", "place-only", "long"]
BATCH = 5000


def fill(count: int, rng: random.Random) -> None:
    from engine import puzzles as engine_puzzles
    from puzzles.models import TrainingPuzzle

    record = engine_puzzles.daily("2026-11-16").to_json()
    rows = []
    for n in range(count):
        rating = min(2600.0, max(600.0, rng.gauss(1500, 350)))
        kind = "wizards_garden" if n % 10 == 9 else "topiary"
        rows.append(
            TrainingPuzzle(
                kind=kind,
                position=record["position"],
                seat=record["seat"],
                k=record["k"],
                optimum=record["optimum"],
                greedy=record["greedy"],
                line=record["line"],
                optimal_first_moves=record["line"][:1],
                legal_first_moves=record["legal_first_moves"],
                nodes=0,
                themes=rng.sample(TOPIARY_THEMES, rng.choice((1, 2))),
                difficulty=record["difficulty"],
                rating=round(rating, 1),
                origin=TrainingPuzzle.Origin.SELF_PLAY,
                fingerprint=f"bench-{n:08d}",
            )
        )
        if len(rows) == BATCH:
            TrainingPuzzle.objects.bulk_create(rows)
            rows = []
    TrainingPuzzle.objects.bulk_create(rows)


def seen_nearest(user, count: int, rating: float) -> None:
    """``user`` has answered the ``count`` Topiary puzzles nearest ``rating`` (practice)."""
    from django.db.models import F, Func

    from puzzles.models import TrainingAttempt, TrainingPuzzle

    nearest = (
        TrainingPuzzle.objects.filter(kind="topiary")
        .annotate(distance=Func(F("rating") - rating, function="ABS"))
        .order_by("distance")
        .values_list("pk", flat=True)[:count]
    )
    TrainingAttempt.objects.bulk_create(
        TrainingAttempt(puzzle_id=pk, user=user, gave_up=True) for pk in nearest
    )


def timed(calls: int, work) -> dict:
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        found = work()
        samples.append((time.perf_counter() - start) * 1000)
        assert found is not None
    samples.sort()
    return {
        "p50": round(statistics.median(samples), 2),
        "p95": round(samples[int(len(samples) * 0.95) - 1], 2),
        "max": round(samples[-1], 2),
    }


def database_ms(user, choice, runs: int = 20) -> float:
    """The median of PostgreSQL's own execution time of the walk (both directions, one
    query): the database's share, apart from Python and the round trips."""
    from puzzles import training_selectors as selectors

    target = selectors.difficulty_target(1500.0, choice.difficulty)
    pool = selectors._unseen(user, "topiary", choice.theme).values_list("pk", "rating")
    up = pool.filter(rating__gte=target).order_by("rating")[: selectors.NEAREST]
    down = pool.filter(rating__lt=target).order_by("-rating")[: selectors.NEAREST]
    walk = up.union(down, all=True)
    times = []
    for _ in range(runs):
        plan = json.loads(walk.explain(format="json", analyze=True))
        times.append(plan[0]["Execution Time"])
    return round(statistics.median(times), 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=100_000)
    parser.add_argument("--seen", type=int, default=5_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument(
        "--reuse", action="store_true", help="time again on the database the last run filled"
    )
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    if not args.reuse:
        database_fresh(url)
    django_ready(HERE.parent, {"DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "bench"})

    from django.db import connection

    from accounts.models import User
    from puzzles import training_selectors as selectors

    rng = random.Random(args.seed)
    started = time.perf_counter()
    if args.reuse:
        fresh, heavy = User.objects.get(username="fresh"), User.objects.get(username="heavy")
    else:
        fill(args.puzzles, rng)
        fresh = User.objects.create_user("fresh", "", "x")
        heavy = User.objects.create_user("heavy", "", "x")
        seen_nearest(heavy, args.seen, 1500.0)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    filled = time.perf_counter() - started

    cases = {
        "nothing seen, normal": (fresh, "normal", None),
        f"{args.seen} nearest seen, normal": (heavy, "normal", None),
        f"{args.seen} nearest seen, easier": (heavy, "easier", None),
        f"{args.seen} nearest seen, harder": (heavy, "harder", None),
        f"{args.seen} nearest seen, theme long": (heavy, "normal", "long"),
    }
    results = {}
    for name, (user, difficulty, theme) in cases.items():
        choice = selectors.stream_choice(
            difficulty=difficulty, theme=theme, kind="", kinds=("topiary",)
        )
        results[name] = timed(
            args.calls,
            lambda user=user, choice=choice: selectors.stream_next(
                user=user, rating=1500.0, choice=choice
            )[0],
        )
        results[name]["database"] = database_ms(user, choice)
    walk = (
        selectors._unseen(heavy, "topiary", None)
        .values_list("pk", "rating")
        .filter(rating__gte=1500)
        .order_by("rating")[: selectors.NEAREST]
    )
    plan = walk.explain(analyze=True)

    print(f"{args.puzzles} puzzles, filled in {filled:.0f} s; ms per next puzzle:")
    print("| case | p50 | p95 | max | the walk in PostgreSQL (median) |\n|---|---|---|---|---|")
    for name, f in results.items():
        print(f"| {name} | {f['p50']} | {f['p95']} | {f['max']} | {f['database']} |")
    print("\nThe walk up from the target, for the player who has seen the nearest:\n" + plan)
    print(
        json.dumps(
            {
                "benchmark": "puzzle_next",
                "machine": describe(),
                "puzzles": args.puzzles,
                "seen": args.seen,
                "calls": args.calls,
                "ms": results,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
