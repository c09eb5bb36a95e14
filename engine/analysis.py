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

Games
-----
Topiary
    The value of a move is the mover's expected final margin (own total minus the best
    other seat's total) over the hidden tiles, by Monte Carlo: ``SAMPLES`` deals of the
    tiles the mover has not seen (``fastplay.Dealer``, the bots' determinizations),
    and from each, the move, then random play by everyone to the end (the strong bot's
    playouts). Every candidate is played on the same deals with the same playout stream
    (common random numbers), so the difference between two moves is measured with far
    less noise than either value. The candidates are the ``CANDIDATES`` best whole moves
    by greedy's exact one-turn expectation (``bots.expected_scores`` with rivals) and the
    move played. A take is judged as the record writes the turn (``join_steps``): taking
    the cell and planting the named hand tile, or ``*``, the tile taken. Draft turns are
    not analysed (``None``).
Wizards' Garden
    Nothing is hidden: the value of each legal move is the strong bot's alpha-beta value
    (flower lead, half a flower for the staff) at ``GARDEN_DEPTH`` plies; a forced win or
    loss counts as ``GARDEN_WIN`` flowers.

``analyse_record`` adds each seat's totals: moves analysed, points lost, and accuracy (the
share of its moves that lost less than ``GOOD_MOVE`` points).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine import bots, fastplay, topiary, wizards_garden
from engine.games import game_module
from engine.rng import Rng

#: Topiary: deals of the unseen tiles per turn, shared by every candidate.
SAMPLES = 1024
#: Topiary: the best moves by greedy's one-turn expectation that are searched.
CANDIDATES = 16
#: Wizards' Garden: plies searched after each legal move.
GARDEN_DEPTH = 4
#: Wizards' Garden: a forced win (or loss) counts as this many flowers ahead (or behind).
GARDEN_WIN = 10.0
#: A move losing less than this many points is a good move (accuracy).
GOOD_MOVE = 1.0


def _rounded(value: float) -> float:
    return round(value, 2) + 0.0  # never -0.0


def _verdict(view, played: str, values: dict[str, float], samples: int):
    best = max(values, key=lambda move: (values[move], move == played))
    lost = max(0.0, values[best] - values[played])
    return {
        "seat": view.seat,
        "played": played,
        "best": best,
        "played_points": _rounded(values[played]),
        "best_points": _rounded(values[best]),
        "lost": _rounded(lost),
        "se": None,  # Topiary sets it: the sampling error of the loss
        "samples": samples,
        "candidates": len(values),
    }


def topiary_turn(view: topiary.View, played: str, rng: Rng) -> dict | None:
    """The analysis of the whole move ``played`` from ``view`` (the mover's, before the
    turn); None for a draft turn."""
    if view.phase != "play":
        return None
    codes = {topiary.move_name(code): code for code in view.move_codes()}
    played_code = codes[played]
    greedy = bots.expected_scores(view, rivals=True)
    ranked = sorted(codes.values(), key=lambda code: (-greedy[code], code))
    candidates = list(dict.fromkeys([*ranked[:CANDIDATES], played_code]))
    dealer = fastplay.Dealer(view)
    seat = view.seat
    deal_rand = random.Random(rng.next_u64())
    margins = {code: [] for code in candidates}
    for _ in range(SAMPLES):
        table = dealer.deal(deal_rand)
        playout_seed = deal_rand.getrandbits(64)
        for code in candidates:
            line = table.copy()
            line.play(code)
            fastplay.playout(line, random.Random(playout_seed).random)
            total, _hand = line.totals()
            margins[code].append(bots.topiary_margin(total, seat))
    values = {topiary.move_name(code): sum(m) / SAMPLES for code, m in margins.items()}
    verdict = _verdict(view, played, values, SAMPLES)
    best_code = codes[verdict["best"]]
    differences = [b - p for b, p in zip(margins[best_code], margins[played_code], strict=True)]
    verdict["se"] = _rounded(_standard_error(differences))
    return verdict


def _standard_error(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def garden_turn(view: wizards_garden.View, played: str, rng: Rng) -> dict:
    """The analysis of ``played`` from ``view``: each legal move's alpha-beta value."""
    state = wizards_garden.state_from_view(view)
    values = {}
    for code in state.move_codes():
        search = bots._GardenSearch(math.inf, None)
        value = search.child_value(state, code, GARDEN_DEPTH, -math.inf, math.inf)
        values[wizards_garden.move_name(code)] = max(-GARDEN_WIN, min(GARDEN_WIN, value))
    return _verdict(view, played, values, 1)


#: Each game's analysis of one turn, by its View type: ``(view, played, rng) -> dict | None``.
ANALYSTS: dict[type, Callable] = {topiary.View: topiary_turn, wizards_garden.View: garden_turn}


def turn_seed(seed: str, turn: int) -> str:
    """The seed of one turn's analysis: the game's seed and the turn's number."""
    return f"{seed}/analysis/{turn}"


def analyse_turn(view, played: str, seed: str, turn: int) -> dict | None:
    """One turn, judged from ``view`` (the mover's, before the turn) alone.

    Positional, so the site can run it in a thinking process (``games.thinking``).
    """
    verdict = ANALYSTS[type(view)](view, played, Rng(turn_seed(seed, turn)))
    if verdict is not None:
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
