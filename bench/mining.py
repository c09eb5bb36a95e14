"""Puzzle mining throughput: puzzles per core-minute, per game and K (issue 44).

    .venv/bin/python bench/mining.py [--kind topiary wizards_garden] [--games 12]
                                     [--seed bench-mining-1]

Plays self-play games 0 .. N-1 of the seed (``engine.mining.self_play``: the house bots,
reproducibly) and mines every seat, as ``mine_puzzles`` does. CPU time (``process_time``,
one core) is split into playing the games and proving candidates, the latter by K; a K's
figure is its kept puzzles per core-minute spent proving candidates of that K (kept or
not, proven or over budget), the total's includes playing the games.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import mining
from engine import puzzles as topiary_puzzles
from engine.topiary import mining as topiary_mining
from engine.wizards_garden import puzzles as garden_puzzles


def _timed(module, name, k_of, spent, tried):
    solve = getattr(module, name)

    def timed(*args, **kwargs):
        k = k_of(*args, **kwargs)
        start = time.process_time()
        try:
            return solve(*args, **kwargs)
        finally:
            spent[k] += time.process_time() - start
            tried[k] += 1

    return timed


def run(kind: str, seed: str, games: int) -> dict:
    spent: dict[int, float] = collections.Counter()
    tried: dict[int, int] = collections.Counter()
    kept: dict[int, int] = collections.Counter()
    if kind == "topiary":
        topiary_mining.puzzles.solve = _timed(
            topiary_puzzles,
            "solve",
            lambda state, **_: topiary_puzzles.puzzle_seat(state)[1],
            spent,
            tried,
        )
    else:
        garden_puzzles.solve = _timed(
            garden_puzzles, "solve", lambda state, k, **_: k, spent, tried
        )
    play = 0.0
    started = time.process_time()
    for index in range(games):
        start = time.process_time()
        record = mining.self_play(kind, seed, index)
        play += time.process_time() - start
        for puzzle in mining.mine_record(record):
            kept[puzzle.k] += 1
        print(f"  game {index}: {sum(kept.values())} puzzles so far", file=sys.stderr, flush=True)
    total = time.process_time() - started
    return {
        "kind": kind,
        "games": games,
        "puzzles": sum(kept.values()),
        "cpu_seconds": round(total, 1),
        "puzzles_per_core_minute": round(60 * sum(kept.values()) / total, 1),
        "play_cpu_seconds": round(play, 1),
        "by_k": {
            k: {
                "candidates": tried[k],
                "kept": kept[k],
                "cpu_seconds": round(spent[k], 1),
                "puzzles_per_core_minute": round(60 * kept[k] / spent[k], 1) if spent[k] else None,
            }
            for k in sorted(tried)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", nargs="+", default=["topiary", "wizards_garden"])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", default="bench-mining-1")
    options = parser.parse_args()
    report = {
        "benchmark": "puzzle mining throughput",
        "machine": describe(),
        "seed": options.seed,
        "results": [run(kind, options.seed, options.games) for kind in options.kind],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
