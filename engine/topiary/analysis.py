"""Topiary's analyst: what each candidate decision of a turn is worth, deal by deal.

A turn with a take is two decisions, judged each from the view the mover had when making
it (docs/ANALYSIS.md, "Two decisions"):

* **The first step** (place only, or place and take a cell: ``b1:N``, ``c5:S c4``), from
  the view before the turn. A place-only step is worth the mover's final margin after it.
  A take step is worth, over the unseen tile it turns up, the margin of **the best plant
  for that tile**: the mover plants after seeing it. Deals are grouped by the tile the take
  turns up; in each group the plant (``*`` or a hand tile) with the highest mean margin is
  the one the step is credited with, and each deal contributes that plant's margin.
* **The plant step** (``c5:S c4=R3``, written as the whole move so the board can draw
  it), from the view with the taken tile seen: each plant's margin.

A margin is the mover's final total minus the best other seat's, by Monte Carlo:
``SAMPLES`` deals of the tiles the mover has not seen (``fastplay.Dealer``, the bots'
determinizations), and from each, the decision, then random play by everyone to the end
(the strong bot's playouts, compiled when ``engine.topiary._compiled`` is built, the same
games otherwise). Every candidate is played on the same deals from the same playout
stream (common random numbers), so the difference between two decisions is measured with
far less noise than either value. The first-step candidates are the ``CANDIDATES`` best by
greedy's exact one-turn expectation (``bots.expected_scores`` with rivals; a take step
ranks by its best plant) and the step played. Draft turns are not analysed (``None``).

``engine.analysis`` turns the margins into the decision's verdict (``GAME.analyst``).
"""

from __future__ import annotations

import random

import engine.topiary.fastplay as fastplay
from engine.rng import Rng
from engine.topiary.board import FACE_DOWN
from engine.topiary.bots import expected_scores, margin
from engine.topiary.moves import NO_TAKE, PLANT_STEP, TAKE_STEP, move_name
from engine.topiary.view import View

#: Deals of the unseen tiles per decision, shared by every candidate.
SAMPLES = 1024
#: The best first steps by greedy's one-turn expectation that are searched.
CANDIDATES = 16

_PLANTS = fastplay.PLANTS


class _Playouts:
    """Deals and playouts for one decision: the deals from one stream, the playouts of a
    deal all from the same start of another (common random numbers); compiled when built,
    the reference otherwise, with the same numbers."""

    def __init__(self, view: View, rng: Rng):
        dealer = fastplay.Dealer(view)
        deals = random.Random(rng.next_u64())
        plays = random.Random(rng.next_u64())
        compiled = fastplay.compiled
        if compiled is None:
            self._deal = lambda: dealer.deal(deals)
            self._play = lambda table, stream: fastplay.playout(table, stream.random)
            self._copy = _copied
            self._plays = plays
        else:
            fast_dealer, deal_stream = compiled.Dealer(dealer), compiled.Stream(deals)
            self._deal = lambda: fast_dealer.deal(deal_stream)
            self._play = compiled.playout
            self._copy = compiled.Stream.copy
            self._plays = compiled.Stream(plays)

    def deal(self):
        """The next deal; the playouts from it start where the last deal's ended."""
        return self._deal()

    def margins(self, table, seat: int, finish) -> list[int]:
        """Per finishing move (``finish(copy)`` plays it in place), ``seat``'s final margin
        after it and a playout, every playout drawn from the same numbers."""
        out = []
        stream = None
        for one in finish:
            line = table.copy()
            one(line)
            stream = self._copy(self._plays)
            self._play(line, stream)
            out.append(margin(line.totals()[0], seat))
        # Every finish places one visitor, so every playout drew as many numbers: go on
        # from where they ended.
        self._plays = stream
        return out


def _copied(rand: random.Random) -> random.Random:
    other = random.Random()
    other.setstate(rand.getstate())
    return other


def _first_step(code: int) -> int:
    """The first step of a whole play move: itself (place only) or its take step."""
    p, cell = divmod(code // _PLANTS, 26)
    return code if cell == NO_TAKE else TAKE_STEP + p * 26 + cell


def margins(view: View, played: str, rng: Rng) -> dict[str, list[float]] | None:
    """Per candidate decision from ``view`` (the mover's, when deciding; ``played`` among
    them): the mover's final margin on each deal. None for a draft turn."""
    if view.phase != "play":
        return None
    if view.pending is not None:
        return _plants(view, rng)
    return _first_steps(view, played, rng)


def _plants(view: View, rng: Rng) -> dict[str, list[float]]:
    """The plant step, the taken tile seen: each plant's margin, named as the whole move."""
    _position, cell, taken = view.pending
    codes = view.move_codes()
    tiles = [taken if code == PLANT_STEP else code - PLANT_STEP - 1 for code in codes]
    playouts = _Playouts(view, rng)
    finish = [lambda line, tile=tile: line.plant(cell, tile) for tile in tiles]
    found = [[] for _ in codes]
    for _ in range(SAMPLES):
        deal = playouts.margins(playouts.deal(), view.seat, finish)
        for values, value in zip(found, deal, strict=True):
            values.append(value)
    step = view.pending_step
    return {f"{step}{move_name(code)}": values for code, values in zip(codes, found, strict=True)}


def _first_steps(view: View, played: str, rng: Rng) -> dict[str, list[float]]:
    steps = {move_name(code): code for code in view.step_codes()}
    greedy: dict[int, int] = {}
    for code, value in expected_scores(view, rivals=True).items():
        step = _first_step(code)
        greedy[step] = max(greedy.get(step, value), value)
    ranked = sorted(greedy, key=lambda step: (-greedy[step], step))
    candidates = list(dict.fromkeys([*ranked[:CANDIDATES], steps[played]]))
    hand = view.hand
    playouts = _Playouts(view, rng)
    seat = view.seat
    places, takes = {}, {}
    for step in candidates:
        if step < TAKE_STEP:
            places[step] = ([lambda line, code=step: line.play(code)], [])
        else:
            p, cell = divmod(step - TAKE_STEP, 26)
            base = (p * 26 + cell) * _PLANTS
            plants = (base, *(base + tile + 1 for tile in hand))
            # Per deal: the tile the take turns up, and each plant's margin.
            takes[step] = (cell, [lambda line, code=c: line.play(code) for c in plants], [])
    for _ in range(SAMPLES):
        table = playouts.deal()
        garden = table.garden
        for finish, deals in places.values():
            deals.append(playouts.margins(table, seat, finish)[0])
        for cell, finish, deals in takes.values():
            deals.append((garden[cell] - FACE_DOWN, playouts.margins(table, seat, finish)))
    found = {move_name(step): deals for step, (_finish, deals) in places.items()}
    for step, (_cell, _finish, deals) in takes.items():
        found[move_name(step)] = _best_plant_for_each_tile(deals)
    return found


def _best_plant_for_each_tile(deals: list[tuple[int, list[int]]]) -> list[int]:
    """Per deal, the margin of the plant that does best, over the deals, for the tile that
    deal's take turned up (the first, ``*``, on a tie): what a mover who plants after
    seeing the tile, and plants well, gets from the take."""
    sums: dict[int, list[int]] = {}
    for tile, values in deals:
        total = sums.setdefault(tile, [0] * len(values))
        for i, value in enumerate(values):
            total[i] += value
    best = {tile: total.index(max(total)) for tile, total in sums.items()}
    return [values[best[tile]] for tile, values in deals]
