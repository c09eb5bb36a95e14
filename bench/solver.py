"""Exact puzzle solver times over generated positions (targets: K=3 median 2 s, worst 10 s;
K=2 median 0.2 s; K=4 reported).

    .venv/bin/python bench/solver.py [--positions 50] [--k 2 3 4]

Positions come from the daily generator's own procedure (``puzzles.candidate_position``,
greedy bots on a seeded 2-player deal) with seeds ``bench-solver-K-i``, so every run solves
the same positions. The time is the whole ``puzzles.solve``: the optimum, one line, the
count of optimal first moves and the greedy score. Wall and CPU time are both reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import puzzles
from engine.rng import Rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--k", type=int, nargs="+", default=[2, 3, 4])
    options = parser.parse_args()
    report = {"benchmark": "exact puzzle solver", "machine": describe(), "by_k": {}}
    for k in options.k:
        seconds, cpu = [], []
        gaps = []
        for i in range(options.positions):
            state = puzzles.candidate_position(Rng(f"bench-solver-{k}-{i}"), k)
            start, cpu_start = time.perf_counter(), time.process_time()
            solution = puzzles.solve(state)
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cpu_start)
            gaps.append(solution.optimum - solution.greedy)
            print(f"  K={k} #{i}: {seconds[-1]:.3f} s", file=sys.stderr, flush=True)
        report["by_k"][k] = {
            "positions": len(seconds),
            "median_seconds": round(statistics.median(seconds), 3),
            "mean_seconds": round(statistics.mean(seconds), 3),
            "worst_seconds": round(max(seconds), 3),
            "median_cpu_seconds": round(statistics.median(cpu), 3),
            "worst_cpu_seconds": round(max(cpu), 3),
            "mean_greedy_gap": round(statistics.mean(gaps), 2),
        }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
