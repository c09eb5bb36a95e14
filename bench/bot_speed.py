"""Topiary bot decisions per second on fixed positions (greedy, and strong on a playout cap).

    .venv/bin/python bench/bot_speed.py [--positions 60] [--iterations 1000]

Positions: 2-, 3- and 4-player deals of seeds ``0..positions-1`` after ``seed % 9`` random
whole moves (engine ``Rng``), the mover's view. Greedy decides each once; strong decides
with ``iterations`` playouts (no clock, so every run does the same work: deal the hidden
tiles, play out, score, decide the winner). The strong figure is playouts per second.
Wall and CPU time are both reported.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import bots, topiary
from engine.rng import Rng


def positions(count: int) -> list[topiary.View]:
    """The mover's view of each benchmark position (never over, never pending)."""
    views = []
    for seed in range(count):
        state = topiary.new_game(topiary.Options(players=2 + seed % 3), seed)
        rng = Rng(seed)
        for _ in range(seed % 9):
            state = state.apply(rng.choice(state.legal_moves()))
        views.append(state.view(state.to_move))
    return views


def timed(views, level: str, iterations: int | None) -> dict:
    start, cpu_start = time.perf_counter(), time.process_time()
    for i, view in enumerate(views):
        bots.choose_move(view, level, rng=Rng(i), iterations=iterations)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "decisions": len(views),
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "decisions_per_cpu_second": round(len(views) / cpu, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=1000)
    options = parser.parse_args()
    views = positions(options.positions)
    greedy = timed(views, "greedy", None)
    strong = timed(views, "strong", options.iterations)
    strong["playouts_per_cpu_second"] = round(
        options.iterations * len(views) / strong["cpu_seconds"]
    )
    print(
        json.dumps(
            {
                "benchmark": "Topiary bot decisions",
                "greedy": greedy,
                "strong": {"iterations": options.iterations, **strong},
                "machine": describe(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
