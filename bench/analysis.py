"""Post-game analysis: seconds to analyse whole games on one core (docs/ANALYSIS.md).

    .venv/bin/python bench/analysis.py [--games 3] [--players 2] [--compare]

Games: Topiary games of ``players`` seats between greedy and random bots (seeds
``0..games-1``, ``engine.bots.play_game``), and as many Wizards' Garden games; each is
analysed whole by ``engine.analysis.analyse_record``, in this one process (one core).
Reports per game the turns, the seconds (wall and CPU) and the seconds per turn, and the
largest standard error of a Topiary loss. The target: a 2-player Topiary game in at most
5 s on one core (issue 46).

``--compare`` analyses the same Topiary games twice, with the compiled playouts
(``engine.topiary._compiled``, built by ``make venv``) and with the pure-Python reference
(``fastplay.compiled = None``), game by game in turn, checks that both give the same
analysis and reports the CPU seconds of each and their ratio per game.
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
from engine import analysis, bots, topiary, wizards_garden
from engine.topiary import analysis as topiary_analysis
from engine.topiary import fastplay
from engine.wizards_garden import analysis as garden_analysis


def timed_games(module, levels: list[str], games: int) -> dict:
    seconds, cpu, turns, errors = [], [], [], []
    for seed in range(games):
        record = bots.play_game(module, levels, seed=seed).record(module)
        start, cpu_start = time.perf_counter(), time.process_time()
        result = analysis.analyse_record(record, seed=f"bench/{seed}")
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
        turns.append(len(record["moves"]))
        errors += [t["se"] for t in result["turns"] if t is not None and t["se"] is not None]
    per_turn = [s / n for s, n in zip(seconds, turns, strict=True)]
    return {
        "games": games,
        "turns_per_game": statistics.mean(turns),
        "seconds_per_game": {
            "mean": round(statistics.mean(seconds), 2),
            "max": round(max(seconds), 2),
        },
        "cpu_seconds_per_game": round(statistics.mean(cpu), 2),
        "seconds_per_turn": {
            "mean": round(statistics.mean(per_turn), 3),
            "max": round(max(per_turn), 3),
        },
        "standard_error_of_a_loss": (
            {"median": round(statistics.median(errors), 2), "max": round(max(errors), 2)}
            if errors
            else None
        ),
    }


def compared(levels: list[str], games: int) -> dict:
    """CPU seconds per Topiary game with the reference playouts and the compiled ones."""
    built = fastplay.compiled
    if built is None:
        sys.exit("engine/topiary/_compiled.pyx is not built: run `make venv`")
    rows = []
    for seed in range(games):
        record = bots.play_game(topiary, levels, seed=seed).record(topiary)
        seconds, results = {}, {}
        for name, build in (("reference", None), ("compiled", built)):
            fastplay.compiled = build
            start = time.process_time()
            results[name] = analysis.analyse_record(record, seed=f"bench/{seed}")
            seconds[name] = time.process_time() - start
        fastplay.compiled = built
        if results["reference"] != results["compiled"]:
            sys.exit(f"game {seed}: the compiled playouts did not give the reference's analysis")
        rows.append(
            {
                "seed": seed,
                "turns": len(record["moves"]),
                "reference_cpu_seconds": round(seconds["reference"], 2),
                "compiled_cpu_seconds": round(seconds["compiled"], 2),
                "ratio": round(seconds["reference"] / seconds["compiled"], 1),
            }
        )
    return {"games": rows, "same_analysis": True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--compare", action="store_true", help="reference against compiled")
    args = parser.parse_args()
    seats = ["greedy", *["random"] * (args.players - 1)]
    if args.compare:
        report = {
            "benchmark": "analysis --compare",
            "machine": describe(),
            "samples": topiary_analysis.SAMPLES,
            "candidates": topiary_analysis.CANDIDATES,
            "topiary": compared(seats, args.games),
        }
        print(json.dumps(report, indent=2))
        return
    report = {
        "benchmark": "analysis",
        "machine": describe(),
        "samples": topiary_analysis.SAMPLES,
        "candidates": topiary_analysis.CANDIDATES,
        "garden_depth": garden_analysis.GARDEN_DEPTH,
        "topiary": timed_games(topiary, seats, args.games),
        "wizards_garden": timed_games(wizards_garden, ["greedy", "random"], args.games),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
