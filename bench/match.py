"""Bot strength: many seeded games between bot levels, seats rotated, win rates with 95% CIs.

    .venv/bin/python bench/match.py topiary --bots greedy,random --games 200
    .venv/bin/python bench/match.py topiary --bots strong,greedy --games 100 --budget 1 --jobs 2
    .venv/bin/python bench/match.py topiary --bots strong,greedy,greedy,random --games 40
    .venv/bin/python bench/match.py wizards-garden --bots strong,greedy --games 100
    .venv/bin/python bench/match.py topiary --bots greedy,old-greedy --old-engine /tmp/old-engine

``LEVEL@N`` seats a searching level capped at ``N`` iterations a decision (``strong@8000``):
a budget in work, not seconds, so a match means the same on a loaded machine as on a quiet
one (``--iterations`` caps every searching seat at once). ``old-LEVEL`` seats the bot of an
older engine checkout (``--old-engine DIR``, see
``bench/old_engine.py``): issue 11's bots decide a take in two steps, the old ones at once.

Game ``i`` is dealt from seed ``BASE + i // players`` and seats the lineup rotated by
``i % players``, so every deal is played once from every seat: seat and deal luck cancel.
Each lineup entry (``greedy#2`` for a second greedy) gets its wins counted; a shared victory
(a drawn Wizards' Garden game) counts 1/k to each of the k winners. The interval is Wilson's
score interval at 95%. Every strong-bot move time is kept to check the budget rule (a move
never takes more than 110% of its budget); the summary reports the slowest move.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import old_engine
from bench.machine import describe
from engine import bots
from engine.games import game_module

Z95 = 1.959964


def wilson(wins: float, games: int) -> tuple[float, float]:
    """Wilson's 95% score interval for a proportion ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def entry_names(levels: list[str]) -> list[str]:
    """Lineup entries named by level, numbered when a level appears twice (greedy#2)."""
    seen: dict[str, int] = {}
    names = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        names.append(level if seen[level] == 1 else f"{level}#{seen[level]}")
    return names


def parse_entry(entry: str, iterations):
    """``strong@8000`` -> ("strong", 8000); a bare level keeps the match's ``iterations``."""
    level, at, cap = entry.partition("@")
    if not at:
        return level, iterations
    if not cap.isdigit() or int(cap) < 1:
        raise ValueError(f"{entry!r}: expected LEVEL@ITERATIONS with a positive count")
    return level, int(cap)


def one_game(args: tuple) -> dict:
    """Play game ``index``; the result by lineup entry (run in a worker process)."""
    game, levels, index, base_seed, budget, iterations, old_path = args
    module = game_module(game)
    players = len(levels)
    shift = index % players
    names = entry_names(levels)
    seated = [names[(seat + shift) % players] for seat in range(players)]
    seat_entries = [levels[(seat + shift) % players] for seat in range(players)]
    parsed = [parse_entry(entry, iterations) for entry in seat_entries]
    seat_levels = [level for level, _cap in parsed]
    if any(level.startswith(old_engine.OLD_PREFIX) for level in levels):
        played = old_engine.play_game(
            module,
            seat_levels,
            seed=base_seed + index // players,
            budget=1.0 if budget is None else budget,
            iterations=iterations,
            old_path=old_path,
        )
    else:
        played = bots.play_game(
            module,
            seat_levels,
            seed=base_seed + index // players,
            budget=budget,
            iterations=[cap for _level, cap in parsed],
        )
    score = played.final.score()
    winners = score["winners"]
    totals = {seated[entry["seat"]]: entry["total"] for entry in score["scores"]}
    strong_seconds = [
        seconds
        for seconds, seat in zip(played.seconds, played.movers, strict=True)
        if seat_levels[seat].removeprefix(old_engine.OLD_PREFIX) in bots.SECONDS
    ]
    return {
        "wins": {seated[s]: 1 / len(winners) for s in winners},
        "totals": totals,
        "strong_seconds": strong_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["topiary", "wizards-garden"])
    parser.add_argument("--bots", required=True, help="lineup, e.g. strong,greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--budget", type=float, help="seconds per searching move (default: each level's own)"
    )
    parser.add_argument(
        "--iterations", type=int, help="cap strong-bot iterations instead of the clock"
    )
    parser.add_argument("--seed", type=int, default=1000, help="first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--json", type=Path, help="also write the summary (and every game) here after each game"
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep the games --json holds, play the rest"
    )
    parser.add_argument(
        "--old-engine", help="checkout whose engine plays the old-LEVEL seats (old-greedy ...)"
    )
    options = parser.parse_args()
    levels = options.bots.split(",")
    if any(level.startswith(old_engine.OLD_PREFIX) for level in levels):
        if options.game != "topiary" or not options.old_engine:
            parser.error("old-LEVEL seats need topiary and --old-engine DIR")
        old_engine.load(str(Path(options.old_engine).resolve()))
    settings = {
        "game": options.game,
        "lineup": levels,
        "budget": options.budget,
        "iterations": options.iterations,
        "first_seed": options.seed,
        "old_engine": options.old_engine,
    }
    played = resumed(options.json, settings) if options.resume else {}
    old_path = options.old_engine and str(Path(options.old_engine).resolve())
    tasks = [
        (options.game, levels, i, options.seed, options.budget, options.iterations, old_path)
        for i in range(options.games)
        if i not in played
    ]
    # A resumed match's seconds add up over its runs.
    start = time.perf_counter() - (json.loads(options.json.read_text())["seconds"] if played else 0)
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        for task, result in zip(tasks, pool.map(one_game, tasks), strict=True):
            played[task[2]] = result
            if len(played) % max(1, options.games // 10) == 0:
                print(f"  {len(played)}/{options.games} games", file=sys.stderr, flush=True)
            if options.json:
                summary = summarise(settings, played, options, time.perf_counter() - start)
                options.json.write_text(json.dumps(summary, indent=1) + "\n")
    summary = summarise(settings, played, options, time.perf_counter() - start)
    print(json.dumps({key: value for key, value in summary.items() if key != "played"}, indent=1))
    if options.json:
        options.json.write_text(json.dumps(summary, indent=1) + "\n")


def resumed(path: Path | None, settings: dict) -> dict[int, dict]:
    """The games an earlier run of the same match wrote to ``path``, by game index."""
    if path is None or not path.exists():
        return {}
    earlier = json.loads(path.read_text())
    differs = [key for key, value in settings.items() if earlier.get(key) != value]
    if differs:
        raise SystemExit(f"--resume: {path} is another match (differs in {', '.join(differs)})")
    return {int(index): result for index, result in earlier.get("played", {}).items()}


def summarise(settings: dict, played: dict[int, dict], options, elapsed: float) -> dict:
    """Wins, intervals and mean totals by lineup entry over the games ``played`` so far,
    and the games themselves (for ``--resume``)."""
    names = entry_names(settings["lineup"])
    games = len(played)
    wins = dict.fromkeys(names, 0.0)
    totals = dict.fromkeys(names, 0)
    strong_seconds: list[float] = []
    for result in played.values():
        for name, share in result["wins"].items():
            wins[name] += share
        for name, total in result["totals"].items():
            totals[name] += total
        strong_seconds += result["strong_seconds"]
    summary = {
        **settings,
        "games": games,
        "jobs": options.jobs,
        "seconds": round(elapsed, 1),
        "machine": describe(),
        "entries": {
            name: {
                "wins": wins[name],
                "win_rate": round(wins[name] / games, 3) if games else None,
                "ci95": [round(x, 3) for x in wilson(wins[name], games)],
                "mean_total": round(totals[name] / games, 2) if games else None,
            }
            for name in names
        },
    }
    if strong_seconds and options.iterations is None and "@" not in options.bots:
        slowest = max(strong_seconds)
        summary["strong_moves"] = {
            "count": len(strong_seconds),
            "mean_seconds": round(sum(strong_seconds) / len(strong_seconds), 4),
            "max_seconds": round(slowest, 4),
            **(
                {
                    "max_over_budget": round(slowest / options.budget, 3),
                    "over_110_percent": sum(1 for s in strong_seconds if s > 1.1 * options.budget),
                }
                if options.budget
                else {}
            ),
        }
    summary["played"] = {str(index): played[index] for index in sorted(played)}
    return summary


if __name__ == "__main__":
    main()
