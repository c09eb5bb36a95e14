"""Honest ratings for the house bot levels: a round robin of 2-player games (Topiary or
Wizards' Garden) on seeded deals from both seats, rated by a maximum-likelihood Elo fit with
error bars.

    .venv/bin/python bench/levels.py --jobs 3
    .venv/bin/python bench/levels.py --entries random,greedy,strong@2000,strong@8000 --games 40
    .venv/bin/python bench/levels.py --refit run.json more-greedy-master.json
    .venv/bin/python bench/levels.py --game wizards-garden --rate

Entries are bench/match.py lineup entries; ``LEVEL@N`` caps a searching level at ``N``
iterations (Wizards' Garden: search nodes) a decision, the work its time budget buys on a
core (``ITERATIONS``, from each level's rate, which ``--rate`` measures in CPU time), so the
ratings do not depend on how loaded the machine is. A level a game does not define plays as
its stand-in (``engine.bots.STAND_IN``: Wizards' Garden's master is its strong search with
master's time).
Neighbouring entries (in the order given) play ``--games`` games, the others
``--far-games``: those are lopsided and cost most where a searching level plays.

The fit is Bradley-Terry (as BayesElo and Ordo fit Elo): P(i beats j) = 1 / (1 +
10^((r_j - r_i) / 400)), maximised by Newton's method over all games at once, a shared win
counting half to each. Like BayesElo's prior, every pair that met gets one virtual drawn
game (half a win each way), so a level that never lost still has a finite rating. The
anchor (greedy = 1500: a new player starts at 1500) is fixed; each other rating's 95%
interval is +- 1.96 standard errors from the inverse of the fit's information matrix.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe
from bench.match import one_game, wilson
from engine import bots

#: Each searching level's work per CPU second over the decisions of seeded games (``--rate``,
#: AMD; docs/BENCHMARKS.md, "Strong decisions"): Topiary iterations (play phase; master's
#: guided playouts cost more than strong's random ones), Wizards' Garden nodes (master is
#: strong's search there).
RATE = {
    "topiary": {"strong": 300_000, "master": 50_000},
    "wizards-garden": {"strong": 23_100_000, "master": 23_100_000},
}
#: Iterations (nodes) a decision of each searching level runs in its ``engine.bots.SECONDS``.
ITERATIONS = {
    game: {level: int(round(seconds * rates[level], -2)) for level, seconds in bots.SECONDS.items()}
    for game, rates in RATE.items()
}
ANCHOR = ("greedy", 1500.0)


def default_entries(game: str) -> list[str]:
    """Every house level, the searching ones at the iterations of their seconds."""
    caps = ITERATIONS[game]
    return [level if level not in caps else f"{level}@{caps[level]}" for level in bots.LEVELS]


def fit(results: dict[tuple[str, str], tuple[float, float]], anchor=ANCHOR):
    """Maximum-likelihood Elo of every entry from ``{(a, b): (a's wins, b's wins)}``.

    Returns ``{entry: (rating, half-width of its 95% interval)}``; the anchor's half-width
    is 0. One virtual draw per pair keeps every rating finite.
    """
    names = sorted({name for pair in results for name in pair})
    index = {name: i for i, name in enumerate(names)}
    wins = [[0.0] * len(names) for _ in names]
    for (a, b), (a_wins, b_wins) in results.items():
        wins[index[a]][index[b]] += a_wins + 0.5
        wins[index[b]][index[a]] += b_wins + 0.5
    scale = math.log(10) / 400
    rating = [0.0] * len(names)
    free = [i for i, name in enumerate(names) if name != anchor[0]]
    if len(free) == len(names):
        raise ValueError(f"the anchor {anchor[0]!r} played no game")
    for _step in range(100):
        gradient = [0.0] * len(names)
        hessian = [[0.0] * len(names) for _ in names]
        for i, j in itertools.combinations(range(len(names)), 2):
            games = wins[i][j] + wins[j][i]
            if not games:
                continue
            p = 1.0 / (1.0 + math.exp(-scale * (rating[i] - rating[j])))
            gradient[i] += scale * (wins[i][j] - games * p)
            gradient[j] -= scale * (wins[i][j] - games * p)
            w = scale * scale * games * p * (1 - p)
            hessian[i][i] += w
            hessian[j][j] += w
            hessian[i][j] -= w
            hessian[j][i] -= w
        information = [[hessian[i][j] for j in free] for i in free]
        covariance = _inverse(information)
        change = [sum(covariance[a][b] * gradient[free[b]] for b in range(len(free)))
                  for a in range(len(free))]  # fmt: skip
        for a, i in enumerate(free):
            rating[i] += change[a]
        if max(abs(c) for c in change) < 1e-9:
            break
    offset = anchor[1] - rating[index[anchor[0]]]
    errors = dict.fromkeys(names, 0.0)
    for a, i in enumerate(free):
        errors[names[i]] = 1.959964 * math.sqrt(covariance[a][a])
    return {name: (rating[index[name]] + offset, errors[name]) for name in names}


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive definite matrix."""
    n = len(matrix)
    rows = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


#: The two caps ``rate`` times a decision at, per game: both well inside what a time budget
#: buys, neither reached by a search that ends early.
RATE_CAPS = {"topiary": (2_000, 16_000), "wizards-garden": (500_000, 4_000_000)}


def rate(game: str, level: str = "strong", views_from: int = 4) -> dict:
    """``level``'s search cost over every other decision (Topiary: of the play phase) of
    ``views_from`` seeded greedy games at two caps: iterations (nodes) per CPU second beyond
    the fixed cost of a decision (what ``RATE`` holds), and that fixed cost."""
    from engine.games import game_module
    from engine.rng import Rng

    views = []
    for seed in range(views_from):
        played = bots.play_game(game_module(game), ["greedy", "greedy"], seed=9000 + seed)
        state = played.initial
        for move in played.moves:
            if getattr(state, "phase", None) != "draft":
                views.append(state.view(state.to_move))
            state = state.apply(move)
    views = views[::2]
    low, high = RATE_CAPS[game]
    seconds = {}
    for iterations in (low, high):
        start = time.process_time()
        for i, view in enumerate(views):
            bots.choose_move(view, level, rng=Rng(i), iterations=iterations)
        seconds[iterations] = (time.process_time() - start) / len(views)
    per_iteration = (seconds[high] - seconds[low]) / (high - low)
    return {
        "game": game,
        "level": level,
        "decisions": len(views),
        "iterations_per_cpu_second": round(1 / per_iteration),
        "fixed_ms_per_decision": round(1000 * (seconds[low] - low * per_iteration), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(RATE), default="topiary")
    parser.add_argument("--entries", help="lineup entries (default: every level at its seconds)")
    parser.add_argument("--games", type=int, default=40, help="games between neighbours")
    parser.add_argument("--far-games", type=int, default=10, help="games between the others")
    parser.add_argument("--seed", type=int, default=5000, help="first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", type=Path, help="write the summary here after every pair")
    parser.add_argument("--rate", action="store_true", help="measure RATE and stop")
    parser.add_argument(
        "--refit",
        type=Path,
        nargs="+",
        help="play nothing: fit this run's --json and bench/match.py --json files of more "
        "games between two entries (new deals: a later --seed), added to their pair",
    )
    options = parser.parse_args()
    if options.rate:
        for level in bots.SECONDS:
            print(json.dumps({**rate(options.game, level), "machine": describe()}), flush=True)
        return
    if options.refit:
        print(json.dumps(_refit(options.refit, options), indent=1))
        return
    entries = options.entries.split(",") if options.entries else default_entries(options.game)
    pairs = sorted(
        itertools.combinations(range(len(entries)), 2),
        key=lambda pair: (pair[1] - pair[0] > 1, pair[1], pair[0]),
    )
    results: dict[tuple[str, str], tuple[float, float]] = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        for i, j in pairs:
            games = options.games if j - i == 1 else options.far_games
            lineup = [entries[i], entries[j]]
            tasks = [(options.game, lineup, k, options.seed, None, None, None)
                     for k in range(games)]  # fmt: skip
            wins = dict.fromkeys(lineup, 0.0)
            for result in pool.map(one_game, tasks):
                for name, share in result["wins"].items():
                    wins[name] += share
            results[entries[i], entries[j]] = (wins[entries[i]], wins[entries[j]])
            print(f"  {entries[i]} {wins[entries[i]]:g} - {wins[entries[j]]:g} {entries[j]}",
                  file=sys.stderr, flush=True)  # fmt: skip
            summary = _summary(results, entries, options, time.perf_counter() - start)
            if options.json:
                options.json.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


def _refit(paths: list[Path], options) -> dict:
    """The summary of a levels run with more two-entry matches added to its pairs."""
    run = json.loads(paths[0].read_text())
    results = {(pair["a"], pair["b"]): (pair["a_score"], pair["games"] - pair["a_score"])
               for pair in run["pairs"]}  # fmt: skip
    for path in paths[1:]:
        match = json.loads(path.read_text())
        a, b = match["lineup"]
        a_wins, b_wins = (match["entries"][name]["wins"] for name in (a, b))
        key = (a, b) if (a, b) in results else (b, a)
        if key == (b, a):
            a_wins, b_wins = b_wins, a_wins
        before = results.get(key, (0.0, 0.0))
        results[key] = (before[0] + a_wins, before[1] + b_wins)
    options.seed, options.game = run["first_seed"], run.get("game", "topiary")
    return _summary(results, run["entries"], options, run["seconds"])


def _summary(results, entries, options, seconds: float) -> dict:
    ratings = fit(results) if any(ANCHOR[0] in pair for pair in results) else {}
    return {
        "game": options.game,
        "entries": entries,
        "first_seed": options.seed,
        "seconds": round(seconds, 1),
        "machine": describe(),
        "pairs": [
            {
                "a": a,
                "b": b,
                "games": a_wins + b_wins,
                "a_score": a_wins,
                "a_ci95": [round(x, 3) for x in wilson(a_wins, a_wins + b_wins)],
            }
            for (a, b), (a_wins, b_wins) in results.items()
        ],
        "elo": {name: [round(r), round(e)] for name, (r, e) in ratings.items()},
    }


if __name__ == "__main__":
    main()
