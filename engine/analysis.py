"""Post-game analysis: for every move of a finished game, what the engine would have played
from the mover's view at the time, and how many points the move played cost.

    from engine import analysis
    result = analysis.analyse_record(record, seed="game/42")
    result["turns"][3]  # {"turn": 3, "seat": 1, "played": "c5:S c4", "best": "b1:N",
                        #  "played_points": 2.4, "best_points": 6.1, "lost": 3.7, "se": 0.6,
                        #  ..., "plant": {"played": "c5:S c4=*", "best": "c5:S c4=R3", ...}}

Each turn is judged from ``state.view(mover)`` alone, so nothing the mover could not see
(face-down tiles, other hands) changes its analysis; the full states of the record are
used only to walk from one turn to the next. Every turn draws its randomness from an
``Rng`` seeded with ``seed`` and the turn's number, so an analysis comes out the same
every time it is run. A turn played in two steps (a Topiary take, then its plant once the
tile is seen) is two decisions, each judged from the view the mover had when making it.

Each game values a turn's candidate moves with its own analyst (``GameDefinition.analyst``:
``engine.topiary.analysis``, ``engine.wizards_garden.analysis``): per candidate, its value
in points on each sample. This module turns the values into the turn's verdict (the best
move, the points lost and their sampling error), and ``analyse_record`` adds each seat's
totals: decisions analysed, points lost, and accuracy (the share of its decisions that lost
less than ``GOOD_MOVE`` points).
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


def analyse_turn(view, played: str, seed: str, turn: int, plant_view=None) -> dict | None:
    """One turn, judged from ``view`` (the mover's, before the turn) alone; None for a turn
    the game's analyst does not judge (a Topiary draft turn), or a game without one.

    A turn played in two steps (a Topiary take, ``c5:S c4=R3``) is two decisions: its
    first step (``c5:S c4``) judged from ``view``, and, given ``plant_view`` (the mover's
    view with the taken tile seen), its plant judged from that, as the verdict's
    ``"plant"``. Positional, so the site can run it in a thinking process
    (``games.thinking``).
    """
    game = view_game(view)
    if game is None:
        raise TypeError(f"analysis takes a view (state.view(seat)), not {type(view).__name__}")
    verdict = _judged(game, view, first_step(game, played), Rng(turn_seed(seed, turn)))
    if verdict is None:
        return None
    verdict["turn"] = turn
    if plant_view is not None:
        verdict["plant"] = _judged(game, plant_view, played, Rng(turn_seed(seed, turn) + "/plant"))
    return verdict


def _judged(game, view, played: str, rng: Rng) -> dict | None:
    if game.analyst is None:
        return None
    samples = game.analyst(view, played, rng)
    return None if samples is None else _verdict(view, played, samples)


def first_step(game, move: str) -> str:
    """The first decision of a record move: its take step when played in two steps
    (``c5:S c4`` of ``c5:S c4=R3``), else the move itself."""
    take, _, plant = move.partition("=")
    return take if plant and game.takes_two_steps(take) else move


def turn_views(record: dict) -> list[tuple]:
    """Per record move: the mover's view before it, the move as the record writes it, and
    for a turn played in two steps the mover's view between them (the taken tile seen),
    else None."""
    module = game_module(record["game"])
    states = module.replay(record)
    moves = [entry if isinstance(entry, str) else entry["move"] for entry in record["moves"]]
    out = []
    for turn, move in enumerate(moves):
        state = states[turn]
        seat = state.to_move
        step = first_step(module.GAME, move)
        plant_view = None if step == move else state.apply(step).view(seat)
        out.append((state.view(seat), move, plant_view))
    return out


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
    for turn, (view, played, plant_view) in enumerate(views):
        turns.append(analyse_turn(view, played, seed, turn, plant_view))
        if progress is not None:
            progress(turn + 1, len(views))
    return {"turns": turns, "players": seat_totals(turns, len(record["players"]))}


def seat_totals(turns: list[dict | None], players: int) -> list[dict]:
    """Per seat: decisions analysed (a take and its plant are two), points lost in all, and
    accuracy in percent."""
    decisions = [d for t in turns if t is not None for d in (t, t.get("plant")) if d]
    totals = []
    for seat in range(players):
        mine = [d for d in decisions if d["seat"] == seat]
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
