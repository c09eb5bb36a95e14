"""Random 2-player Topiary playouts per second on one core (target: 10,000 complete games/s).

    .venv/bin/python bench/playouts.py [--games 50000] [--deals 100]

Each game starts from one of ``--deals`` seeded deals (dealt before the clock starts), is
copied into a scratch table, played to the end by ``fastplay.playout`` (a free position
uniformly, then one of its moves uniformly) and scored with the winner decided: the loop
the strong bot runs. One process, so one core. CPU time is reported beside wall time: on
a shared machine it is the fairer figure for "one core".
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import fastplay, topiary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--deals", type=int, default=100)
    options = parser.parse_args()
    deals = [
        fastplay.Table(topiary.new_game(topiary.Options(players=2), seed))
        for seed in range(options.deals)
    ]
    rand = random.Random(1)
    wins = [0, 0]
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(options.games):
        table = deals[i % len(deals)].copy()
        fastplay.playout(table, rand.random)
        total, hand = table.totals()
        wins[topiary.winners(total, hand, table.first_player)[0]] += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    result = {
        "benchmark": "random 2-player Topiary playouts",
        "games": options.games,
        "seconds": round(seconds, 3),
        "games_per_second": round(options.games / seconds),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(options.games / cpu_seconds),
        "seat_wins": wins,
        "machine": describe(),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
