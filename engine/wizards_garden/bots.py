"""Wizards' Garden's bots (``engine.bots`` dispatches to them through ``GAME.bots``).

``greedy``
    Most flowers after the move, then holding the staff; ties broken with ``rng``.
``strong``
    Wizards' Garden hides nothing, so the determinization is the view itself; random
    playouts there cannot tell a harvested flower from noise, so the search is
    iterative-deepening alpha-beta on the flower lead (and the staff). It checks the clock
    every 32 nodes; ``iterations`` caps the search nodes instead.

``Search`` is the reference; ``new_search`` gives the compiled one
(``engine.wizards_garden._compiled``, built by ``make venv``) when it is built: the same
moves in the same order, values and node counts, about 100 times faster
(docs/decisions/0022-compiled-garden-search.md).
"""

from __future__ import annotations

import math
import time

from engine.search import BUDGET_SHARE, pick_best
from engine.wizards_garden.rules import State, move_name, state_from_view

try:
    import engine.wizards_garden._compiled as compiled
except ImportError:  # not built (``make venv`` builds it): the reference searches the same
    compiled = None

#: Where a move code's harvested lines start; value of a won game (in flowers); deepest
#: search (a game never lasts longer).
HARVEST_SHIFT = 6
WIN = 1000.0
MAX_DEPTH = 400


def _flowers(state: State, seat: int) -> tuple[int, bool]:
    white, black = state.harvested[seat]
    return white + black, state.staff == seat


def _greedy(view, rng, budget, iterations) -> str:
    state = state_from_view(view)
    seat = view.seat
    scored = {code: _flowers(state.apply_code(code), seat) for code in state.move_codes()}
    return move_name(pick_best(scored, rng))


def _value(state, seat: int) -> float:
    """The position for ``seat``: a finished game is worth +-WIN (0 if drawn); otherwise
    the flower lead, plus half a flower for holding the staff (it breaks ties)."""
    if state.is_over:
        winners = state.score()["winners"]
        return 0.0 if len(winners) > 1 else (WIN if winners == [seat] else -WIN)
    (w0, b0), (w1, b1) = state.harvested
    lead = (w0 + b0 - w1 - b1) if seat == 0 else (w1 + b1 - w0 - b0)
    staff = 0.0 if state.staff is None else (0.5 if state.staff == seat else -0.5)
    return lead + staff


class _OutOfTime(Exception):
    """The search budget ran out in the middle of a depth."""


class Search:
    """Negamax with alpha-beta over move codes, deepened one ply at a time."""

    def __init__(self, deadline: float, node_cap):
        self.deadline = deadline
        self.node_cap = node_cap
        self.nodes = 0
        self.cut_off = False

    def tick(self) -> None:
        """Count a node; raise _OutOfTime once the clock (or the node cap) runs out."""
        self.nodes += 1
        if self.node_cap is not None:
            if self.nodes > self.node_cap:
                raise _OutOfTime
        elif self.nodes % 32 == 0 and time.perf_counter() >= self.deadline:
            raise _OutOfTime

    def negamax(self, state, depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for its mover, searched ``depth`` plies."""
        self.tick()
        if state.is_over:
            return _value(state, state.to_move)
        if depth == 0:
            self.cut_off = True
            return _value(state, state.to_move)
        best = -math.inf
        # Harvesting moves first: they are the ones that usually cut the search short.
        for code in sorted(state.move_codes(), key=lambda c: -(c >> HARVEST_SHIFT)):
            value = self.child_value(state, code, depth, alpha, beta)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best

    def child_value(self, state, code: int, depth: int, alpha: float, beta: float) -> float:
        """The value for the mover of ``state`` of playing ``code``: negated when the turn
        passes, as is when the mover moves again (Wizards' Garden setup)."""
        child = state.apply_code(code)
        if child.to_move == state.to_move and not child.is_over:
            return self.negamax(child, depth - 1, alpha, beta)
        if child.is_over:
            return _value(child, state.to_move)
        return -self.negamax(child, depth - 1, -beta, -alpha)


def new_search(deadline: float, node_cap):
    """A search that stops at ``deadline`` (``time.perf_counter``) or after ``node_cap``
    nodes: compiled when ``compiled`` is built, the reference otherwise."""
    if compiled is None:
        return Search(deadline, node_cap)
    return compiled.Search(deadline, node_cap, _OutOfTime)


def _strong(view, rng, budget, iterations) -> str:
    start = time.perf_counter()
    state = state_from_view(view)
    order = sorted(state.move_codes())
    rng.shuffle(order)
    search = new_search(start + budget * BUDGET_SHARE, iterations)
    best_code = order[0]
    try:
        for depth in range(1, MAX_DEPTH + 1):
            values = {}
            alpha = -math.inf
            search.cut_off = False
            for code in order:
                values[code] = search.child_value(state, code, depth, alpha, math.inf)
                alpha = max(alpha, values[code])
            # Stable sort: among equal values the earlier (shuffled) order wins.
            order.sort(key=lambda c: -values[c])
            best_code = order[0]
            if not search.cut_off:
                break  # the whole game tree was searched: deeper is the same
    except _OutOfTime:
        pass
    return move_name(best_code)


#: The players above ``random``, by level (``GAME.bots``).
PLAYERS = {"greedy": _greedy, "strong": _strong}

#: Each level's strength measured by ``bench/levels.py --game wizards-garden`` (seeded games
#: from both seats, search capped at the nodes each level's seconds buy, a maximum-likelihood
#: Elo fit anchored at greedy = 1500; the table and its error bars are in
#: docs/BENCHMARKS.md, "Levels"). Master is strong's search with master's time
#: (``engine.bots.STAND_IN``). ``GAME.bot_ratings``: the site shows it and starts the bot
#: accounts' ratings from it.
MEASURED_RATINGS = {"random": 1083, "greedy": 1500, "strong": 2114, "master": 2198}
