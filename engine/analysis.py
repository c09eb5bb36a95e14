"""Post-game analysis: for every move of a finished game, what the engine would have played
from the mover's view at the time, and how many points the move played cost.

    from engine import analysis
    result = analysis.analyse_record(record, seed="game/42")
    result["turns"][3]  # {"turn": 3, "seat": 1, "played": "c5:S c4=*", "best": "b1:N",
                        #  "played_points": 2.4, "best_points": 6.1, "lost": 3.7, "se": 0.6, ...}

Each turn is judged from ``state.view(mover)`` alone, so nothing the mover could not see
(face-down tiles, other hands) changes its analysis; the full states of the record are
used only to walk from one turn to the next. Every turn draws its randomness from an
``Rng`` seeded with ``seed`` and the turn's number, so an analysis comes out the same
every time it is run.

Each game values a turn's candidate moves with its own analyst (``GameDefinition.analyst``:
``engine.topiary.analysis``, ``engine.wizards_garden.analysis``): per candidate, its value
in points on each sample. This module turns the values into the turn's verdict (the best
move, the points lost and their sampling error), and ``analyse_record`` adds each seat's
totals: moves analysed, points lost, and accuracy (the share of its moves that lost less
than ``GOOD_MOVE`` points).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.games import game_module, view_game
from engine.rng import Rng

#: A move losing less than this many points is a good move (accuracy).
GOOD_MOVE = 1.0


def _rounded(value: float) -> float:
    return round(value, 2) + 0.0  # never -0.0


def _verdict(view, played: str, samples: dict[str, list[float]]) -> dict:
    """The verdict on ``played`` from each candidate's values, one per sample (paired)."""
    values = {move: sum(found) / len(found) for move, found in samples.items()}
    best = max(values, key=lambda move: (values[move], move == played))
    lost = max(0.0, values[best] - values[played])
    count = len(samples[played])
    se = None  # exact: one sample
    if count > 1:
        differences = [b - p for b, p in zip(samples[best], samples[played], strict=True)]
        se = _rounded(_standard_error(differences))
    return {
        "seat": view.seat,
        "played": played,
        "best": best,
        "played_points": _rounded(values[played]),
        "best_points": _rounded(values[best]),
        "lost": _rounded(lost),
        "se": se,
        "samples": count,
        "candidates": len(values),
    }


def _standard_error(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def turn_seed(seed: str, turn: int) -> str:
    """The seed of one turn's analysis: the game's seed and the turn's number."""
    return f"{seed}/analysis/{turn}"


def analyse_turn(view, played: str, seed: str, turn: int) -> dict | None:
    """One turn, judged from ``view`` (the mover's, before the turn) alone; None for a turn
    the game's analyst does not judge (a Topiary draft turn), or a game without one.

    Positional, so the site can run it in a thinking process (``games.thinking``).
    """
    game = view_game(view)
    if game is None:
        raise TypeError(f"analysis takes a view (state.view(seat)), not {type(view).__name__}")
    if game.analyst is None:
        return None
    samples = game.analyst(view, played, Rng(turn_seed(seed, turn)))
    if samples is None:
        return None
    verdict = _verdict(view, played, samples)
    verdict["turn"] = turn
    return verdict


def turn_views(record: dict) -> list[tuple]:
    """Per record move: (the mover's view before it, the move as the record writes it)."""
    states = game_module(record["game"]).replay(record)
    moves = [entry if isinstance(entry, str) else entry["move"] for entry in record["moves"]]
    return [(states[turn].view(states[turn].to_move), move) for turn, move in enumerate(moves)]


def analyse_record(
    record: dict, *, seed: str, progress: Callable[[int, int], None] | None = None
) -> dict:
    """Every turn of a finished game's record, and each seat's totals.

    ``progress(done, total)`` is called after each turn. Returns ``{"turns": [...],
    "players": [...]}``: one verdict (or None) per record move, and per seat
    ``{"seat", "moves", "lost", "accuracy"}`` (accuracy in percent, None without moves).
    """
    views = turn_views(record)
    turns = []
    for turn, (view, played) in enumerate(views):
        turns.append(analyse_turn(view, played, seed, turn))
        if progress is not None:
            progress(turn + 1, len(views))
    return {"turns": turns, "players": seat_totals(turns, len(record["players"]))}


def seat_totals(turns: list[dict | None], players: int) -> list[dict]:
    """Per seat: moves analysed, points lost in all, and accuracy in percent."""
    totals = []
    for seat in range(players):
        mine = [t for t in turns if t is not None and t["seat"] == seat]
        good = sum(t["lost"] < GOOD_MOVE for t in mine)
        totals.append(
            {
                "seat": seat,
                "moves": len(mine),
                "lost": _rounded(sum(t["lost"] for t in mine)),
                "accuracy": round(100 * good / len(mine)) if mine else None,
            }
        )
    return totals
