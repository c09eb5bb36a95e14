"""Random 2-player Topiary playouts per second on one core (target: 10,000 complete games/s).

    .venv/bin/python bench/playouts.py [--games 50000] [--deals 100]
    .venv/bin/python bench/playouts.py --compare [--games 20000] [--rounds 5]

Each game starts from one of ``--deals`` seeded deals (dealt before the clock starts), is
copied into a scratch table, played to the end by ``fastplay.playout`` (a free position
uniformly, then one of its moves uniformly) and scored with the winner decided: the loop
the strong bot runs. One process, so one core. CPU time is reported beside wall time: on
a shared machine it is the fairer figure for "one core".

``--compare`` runs the reference (``fastplay``) and the compiled playouts
(``engine.topiary._compiled``, built by ``make venv``) in alternating blocks of the same
run, so both see the same machine load, and reports each round's ratio of playouts per
CPU second: the playout loop above, the strong bot's iteration (a determinization of a
view, then a playout and its scoring), and whole strong-bot decisions at a fixed iteration
count (the search as the bot runs it, bandit and all, and its root's greedy prior, a
fixed cost per decision in Python).
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
from engine import bots, fastplay, topiary
from engine.rng import Rng
from engine.topiary import fastplay as topiary_fastplay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--compare", action="store_true", help="reference against compiled")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--iterations", type=int, default=1000, help="strong-bot iterations per decision"
    )
    options = parser.parse_args()
    result = compare(options) if options.compare else reference(options)
    print(json.dumps(result, indent=1))


def reference(options) -> dict:
    games = options.games or 50_000
    deals = [
        fastplay.Table(topiary.new_game(topiary.Options(players=2), seed))
        for seed in range(options.deals)
    ]
    rand = random.Random(1)
    wins = [0, 0]
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        table = deals[i % len(deals)].copy()
        fastplay.playout(table, rand.random)
        total, hand = table.totals()
        wins[topiary.winners(total, hand, table.first_player)[0]] += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        "benchmark": "random 2-player Topiary playouts",
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds),
        "seat_wins": wins,
        "machine": describe(),
    }


def playouts(build, deals, games: int) -> list[int]:
    """``games`` playouts of the 2-player ``deals`` with ``build`` (reference or compiled),
    each scored and its winner decided; the seat wins."""
    wins = [0, 0]
    if build is None:
        rand = random.Random(1)
        for i in range(games):
            table = deals[i % len(deals)].copy()
            fastplay.playout(table, rand.random)
            total, hand = table.totals()
            wins[topiary.winners(total, hand, table.first_player)[0]] += 1
        return wins
    stream = build.Stream(random.Random(1))
    tables = [build.Table.of(deal) for deal in deals]
    for i in range(games):
        table = tables[i % len(tables)].copy()
        build.playout(table, stream)
        total, hand = table.totals()
        wins[topiary.winners(total, hand, table.first_player)[0]] += 1
    return wins


def rollouts(build, views, games: int) -> list[int]:
    """The strong bot's iteration ``games`` times: deal a determinization of a view, play it
    out, score it."""
    topiary_fastplay.compiled = build
    wins = [0, 0]
    kits = [topiary_fastplay.determinizations(view, 1) for view in views]
    for i in range(games):
        deal, play_out = kits[i % len(kits)]
        table = deal()
        play_out(table)
        total, hand = table.totals()
        wins[topiary.winners(total, hand, table.first_player)[0]] += 1
    return wins


def decisions(build, views, iterations: int) -> list[str]:
    """The strong bot's decision on each view at a fixed iteration count."""
    topiary_fastplay.compiled = build
    return [
        bots.choose_move(view, "strong", rng=Rng(i), iterations=iterations)
        for i, view in enumerate(views)
    ]


def cpu_time(work) -> tuple[float, object]:
    start = time.process_time()
    out = work()
    return time.process_time() - start, out


def compare(options) -> dict:
    compiled = topiary_fastplay.compiled
    if compiled is None:
        sys.exit("engine/topiary/_compiled.pyx is not built: run `make venv`")
    games = options.games or 20_000
    deals = [
        fastplay.Table(topiary.new_game(topiary.Options(players=2), seed))
        for seed in range(options.deals)
    ]
    views = []
    for seed in range(20):
        state = topiary.new_game(topiary.Options(players=2), seed)
        rng = Rng(seed)
        for _ in range(seed % 8):
            state = state.apply_code(rng.choice(state.move_codes()))
        views.append(state.view(state.to_move))
    iterations = options.iterations
    loops = {
        "playouts": (games, lambda build: playouts(build, deals, games)),
        "bot_iterations": (games, lambda build: rollouts(build, views, games)),
        "strong_decisions": (
            len(views) * iterations,
            lambda build: decisions(build, views, iterations),
        ),
    }
    figures = {}
    for name, (count, loop) in loops.items():
        ratios, rates = [], {"reference": [], "compiled": []}
        for _ in range(options.rounds):
            reference_seconds, reference_out = cpu_time(lambda loop=loop: loop(None))
            compiled_seconds, compiled_out = cpu_time(lambda loop=loop: loop(compiled))
            if reference_out != compiled_out:
                sys.exit(f"{name}: the compiled build did not play the reference's games")
            rates["reference"].append(round(count / reference_seconds))
            rates["compiled"].append(round(count / compiled_seconds))
            ratios.append(round(reference_seconds / compiled_seconds, 1))
        figures[name] = {
            "per_round": count,
            "per_cpu_second": rates,
            "ratio": ratios,
            "ratio_range": [min(ratios), max(ratios)],
        }
    topiary_fastplay.compiled = compiled
    return {
        "benchmark": "reference against compiled 2-player Topiary playouts, interleaved",
        "rounds": options.rounds,
        "strong_iterations_per_decision": iterations,
        "figures": figures,
        "machine": describe(),
    }


if __name__ == "__main__":
    main()
