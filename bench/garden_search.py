"""Wizards' Garden's search, reference against compiled, side by side on one core.

    .venv/bin/python bench/garden_search.py [--positions 60] [--depth 4] [--rounds 5]
        [--nodes 20000]

The sibling of ``bench/playouts.py --compare`` for the game whose strong bot searches
alpha-beta instead of playing out. Positions: ``--positions`` positions spread over seeded
random games (setup and play). Each round runs, for
the reference (``bots.Search`` on ``rules.State``) and then the compiled search
(``engine.wizards_garden._compiled``, built by ``make venv``), on the same machine load:

* ``analysis``: every legal move of every position searched ``--depth`` plies with a full
  window (what the post-game analysis does), in search nodes per CPU second;
* ``strong``: one strong-bot decision per position capped at ``--nodes`` search nodes
  (the bot's iterative deepening, as ``iterations`` caps it), in decisions per CPU second.

Both must find the same values, node counts and moves; the ratio of each round is reported.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from engine import bots, wizards_garden
from engine.rng import Rng
from engine.wizards_garden import bots as garden_bots


def seeded_positions(count: int) -> list:
    """``count`` positions spread over seeded random games (none over)."""
    rng = Rng("bench/garden_search")
    found = []
    game = 0
    while len(found) < count * 5:
        state = wizards_garden.new_game(seed=game)
        while not state.is_over:
            found.append(state)
            state = state.apply_code(rng.choice(list(state.move_codes())))
        game += 1
    return found[:: len(found) // count][:count]


def analysis_pass(states: list, depth: int) -> tuple[int, list]:
    """Every legal move of every state searched ``depth`` plies: (nodes, values)."""
    nodes, values = 0, []
    for state in states:
        for code in state.move_codes():
            search = garden_bots.new_search(math.inf, None)
            values.append(search.child_value(state, code, depth, -math.inf, math.inf))
            nodes += search.nodes
    return nodes, values


def strong_pass(states: list, node_cap: int) -> list[str]:
    """One strong decision per state, capped at ``node_cap`` nodes."""
    return [
        bots.choose_move(state.view(state.to_move), "strong", rng=Rng(i), iterations=node_cap)
        for i, state in enumerate(states)
    ]


def timed(build, work):
    garden_bots.compiled = build
    start = time.process_time()
    out = work()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=20_000)
    args = parser.parse_args()
    built = garden_bots.compiled
    if built is None:
        sys.exit("engine/wizards_garden/_compiled.pyx is not built: run `make venv`")
    states = seeded_positions(args.positions)
    report = {"benchmark": "Wizards' Garden search, reference against compiled"}
    for name, work, unit in (
        ("analysis", lambda: analysis_pass(states, args.depth), "nodes"),
        ("strong", lambda: strong_pass(states, args.nodes), "decisions"),
    ):
        ratios, rates = [], {"reference": [], "compiled": []}
        for _ in range(args.rounds):
            reference_seconds, reference_out = timed(None, work)
            compiled_seconds, compiled_out = timed(built, work)
            if reference_out != compiled_out:
                sys.exit(f"{name}: the compiled search did not find the reference's results")
            count = reference_out[0] if unit == "nodes" else len(states)
            rates["reference"].append(round(count / reference_seconds))
            rates["compiled"].append(round(count / compiled_seconds))
            ratios.append(round(reference_seconds / compiled_seconds, 1))
        report[name] = {
            "unit": f"{unit} per CPU second",
            "reference": rates["reference"],
            "compiled": rates["compiled"],
            "ratios": ratios,
            "median_ratio": statistics.median(ratios),
        }
    garden_bots.compiled = built
    report["positions"] = len(states)
    report["depth"] = args.depth
    report["node_cap"] = args.nodes
    report["machine"] = describe()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
