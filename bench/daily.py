"""Daily puzzle generation time per date (target: under 30 s for one date).

    .venv/bin/python bench/daily.py [--start 2026-11-22] [--days 14]

Generates the puzzles of consecutive dates (two weeks cover every weekday, so every K)
and reports each date's time, its K, and how many candidates the seed stream needed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", default="2026-11-22")
    parser.add_argument("--days", type=int, default=14)
    options = parser.parse_args()
    first = datetime.date.fromisoformat(options.start)
    dates = []
    for day in range(options.days):
        date = first + datetime.timedelta(days=day)
        start, cpu_start = time.perf_counter(), time.process_time()
        puzzle = puzzles.daily(date)
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        dates.append(
            {
                "date": date.isoformat(),
                "k": puzzle.k,
                "candidate": puzzle.candidate,
                "good": puzzles.is_good(puzzle.solution, puzzle.k),
                "seconds": round(seconds, 2),
                "cpu_seconds": round(cpu_seconds, 2),
            }
        )
        print(f"  {dates[-1]}", file=sys.stderr, flush=True)
    times = [d["seconds"] for d in dates]
    cpu = [d["cpu_seconds"] for d in dates]
    report = {
        "benchmark": "daily puzzle generation",
        "machine": describe(),
        "median_seconds": round(statistics.median(times), 2),
        "worst_seconds": max(times),
        "median_cpu_seconds": round(statistics.median(cpu), 2),
        "worst_cpu_seconds": max(cpu),
        "dates": dates,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
