"""Bots for both games: ``random``, ``greedy`` and ``strong``. They see a view, never a state.

    from engine import bots, topiary
    from engine.rng import Rng
    view = state.view(state.to_move)
    move = bots.choose_move(view, "strong", rng=Rng(7), budget=1.0)

Levels
------
``random``
    A uniformly random legal move.
``greedy``
    The move with the best immediate gain in the bot's own score. In Topiary a take reveals a
    tile the bot cannot see yet, so greedy maximises the *expected* score: the taken tile is
    averaged over the tiles the view has not seen (all equally likely to be under any
    face-down cell). Everything else in the score (visitors, bonus, own hand) is computable
    from the view. In Wizards' Garden: most flowers after the move, then holding the staff.
    Ties are broken with ``rng``. In a Topiary draft, greedy (and strong) keep the three
    highest values.
``strong``
    Topiary: information-set Monte Carlo search. Each iteration deals the unseen tiles at
    random consistently with the view (``fastplay.Dealer``), picks a root move by UCB1, plays
    it and then random moves to the end, and scores the result for the bot (half for a win,
    half for the margin over the best other seat, squashed). A turn can have hundreds of
    moves, so root moves enter in order of their expected margin (greedy's expectation
    minus the best rival's visible points) and a few more as iterations accumulate
    (progressive widening). The most visited move is played.
    Wizards' Garden hides nothing, so the determinization is the view itself; random
    playouts there cannot tell a harvested flower from noise, so the search is
    iterative-deepening alpha-beta on the flower lead (and the staff) instead.

The strong bot stops when ``budget`` seconds have passed since the call, checking the clock
every iteration (Wizards' Garden: every 32 nodes); ``iterations`` instead caps the
iterations (Wizards' Garden: search nodes) and ignores the clock, which makes a move
reproducible (tests). All randomness comes from ``rng``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from types import ModuleType

from engine import fastplay, topiary, wizards_garden
from engine.errors import IllegalMove
from engine.fastplay import POSITIONS_THROUGH, hand_points, line_points, move_code
from engine.rng import Rng
from engine.topiary import FACE_DOWN, LINES, TILE_VALUE

LEVELS = ("random", "greedy", "strong")

#: UCB1 exploration constant (rewards are in [0, 1]).
EXPLORATION = 0.5
#: Progressive widening: root moves searched after n iterations (greedy order).
WIDEN_BASE = 6
WIDEN_PER_SQRT = 1.0
#: Topiary reward: the margin term is 1 / (1 + exp(-margin / MARGIN_SCALE)).
MARGIN_SCALE = 6.0
#: Wizards' Garden: where a move code's harvested lines start; value of a won game (in
#: flowers); deepest search (a game never lasts longer).
HARVEST_SHIFT = 6
WIN = 1000.0
MAX_DEPTH = 400
#: Share of the budget the strong bot plans to use; the rest absorbs the last iteration.
BUDGET_SHARE = 0.97


def choose_move(view, level: str, *, rng: Rng, budget: float = 1.0, iterations=None) -> str:
    """A legal move for the viewer, who must be to move; ``level`` is one of ``LEVELS``.

    ``budget`` is seconds for the strong bot; ``iterations`` (optional) caps its iterations
    instead, for reproducible play.
    """
    if isinstance(view, topiary.View):
        game = _TOPIARY
    elif isinstance(view, wizards_garden.View):
        game = _WIZARDS_GARDEN
    else:
        raise TypeError(f"bots take a view (state.view(seat)), not {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    if not isinstance(rng, Rng):
        raise TypeError("rng: expected an engine.rng.Rng")
    if view.is_over or view.seat is None or view.seat != view.to_move:
        raise IllegalMove(f"seat {view.seat} is not to move")
    if level == "random":
        return rng.choice(view.legal_moves())
    return game[level](view, rng, budget, iterations)


@dataclass(frozen=True)
class BotGame:
    """A game played by bots: the deal, the moves (and who made each), the final state, and
    each move's seconds."""

    seed: int | str
    levels: tuple[str, ...]
    initial: object
    moves: tuple[str, ...]
    movers: tuple[int, ...]
    final: object
    seconds: tuple[float, ...]

    def record(self, module: ModuleType) -> dict:
        """The game record (NOTATION.md) with the seats named after their bot levels."""
        names = [f"{level} bot" for level in self.levels]
        return module.make_record(self.initial, self.moves, seed=self.seed, names=names)


def play_game(
    module: ModuleType, levels, *, seed: int | str, budget: float = 1.0, iterations=None
) -> BotGame:
    """A whole game between bots, seat ``i`` played at ``levels[i]``, dealt from ``seed``.

    Each seat's bot draws from its own generator, ``Rng(f"{seed}/bot/{seat}")``, so a game
    is reproducible from its seed (exactly so with ``iterations`` instead of a time budget).
    """
    levels = tuple(levels)
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    if module is topiary:
        options = topiary.Options(players=len(levels))
    elif len(levels) != 2:
        raise ValueError(f"Wizards' Garden is for 2 players, got {len(levels)} bots")
    else:
        options = module.Options()
    initial = module.new_game(options, seed)
    rngs = [Rng(f"{seed}/bot/{seat}") for seat in range(len(levels))]
    state, moves, movers, seconds = initial, [], [], []
    clock = time.perf_counter
    while not state.is_over:
        seat = state.to_move
        start = clock()
        move = choose_move(
            state.view(seat), levels[seat], rng=rngs[seat], budget=budget, iterations=iterations
        )
        seconds.append(clock() - start)
        state = state.apply(move)
        moves.append(move)
        movers.append(seat)
    return BotGame(seed, levels, initial, tuple(moves), tuple(movers), state, tuple(seconds))


def _pick_best(scored: dict, rng: Rng):
    """The key with the highest value; ties broken by ``rng`` over the sorted keys."""
    top = max(scored.values())
    return rng.choice(sorted(k for k, v in scored.items() if v == top))


# --------------------------------------------------------------------------- Topiary


def expected_scores(view: topiary.View, rivals: bool = False) -> dict[int, int]:
    """Per legal play-phase move code: the viewer's expected score after it, times the number
    of unseen tiles (an integer, so comparisons are exact on every machine).

    With ``rivals``, the expected points the best other seat's visitors see (visitors and
    bonus: their hands are hidden) are subtracted: the margin the move leaves.
    """
    seat = view.seat
    garden = list(view.garden)
    hand = list(view.hand)
    visitors = view.visitors
    unseen = view.unseen_tiles()
    n = len(unseen)
    mine = [p for p, s in enumerate(visitors) if s == seat]
    free = [p for p in view.options.positions if visitors[p] < 0]
    others = [p for p, s in enumerate(visitors) if s >= 0 and s != seat]
    points, seen = {}, {}
    for p in mine + free + others:
        points[p], seen[p] = line_points(garden, LINES[p])
    rival_points = dict.fromkeys((s for s in range(view.players) if s != seat), 0)
    for p in others:
        rival_points[visitors[p]] += points[p]

    def best_rival(cell: int | None) -> int:
        """The best other seat's points with the garden as it is now at ``cell``."""
        if not rivals:
            return 0
        if cell is None:
            return max(rival_points.values())
        now = dict(rival_points)
        for q in POSITIONS_THROUGH[cell]:
            if visitors[q] >= 0 and visitors[q] != seat:
                now[visitors[q]] += line_points(garden, LINES[q])[0] - points[q]
        return max(now.values())

    mine_points = sum(points[p] for p in mine)
    mine_seen = 0
    for p in mine:
        mine_seen |= seen[p]
    unchanged_rival = best_rival(None)
    values = {
        move_code(p): n
        * (mine_points + points[p] + hand_points(hand, mine_seen | seen[p]) - unchanged_rival)
        for p in free
    }
    free_set = set(free)
    mine_set = set(mine)
    cells = {c for p in free for c in LINES[p] if garden[c] >= FACE_DOWN}
    for cell in sorted(cells):
        through_mine = [q for q in POSITIONS_THROUGH[cell] if q in mine_set]
        through_free = [q for q in POSITIONS_THROUGH[cell] if q in free_set]
        rest_points = mine_points - sum(points[q] for q in through_mine)
        rest_seen = 0
        for q in mine:
            if q not in through_mine:
                rest_seen |= seen[q]

        rest = (rest_points, rest_seen)

        def after(tile: int, cell=cell, rest=rest, mine=through_mine, free=through_free):
            return _lines_with(garden, cell, tile, rest, mine, free)

        sums = dict.fromkeys(through_free, 0)
        for tile in unseen:
            pts, mask, lines = after(tile)
            rival = best_rival(cell)
            for q in through_free:
                qp, qs = lines[q]
                sums[q] += pts + qp + hand_points(hand, mask | qs) - rival
        for q in through_free:
            values[move_code(q, cell)] = sums[q]
        for planted in hand:
            pts, mask, lines = after(planted)
            rival = best_rival(cell)
            kept = [t for t in hand if t != planted]
            for q in through_free:
                qp, qs = lines[q]
                everything = mask | qs
                new_tile = sum(TILE_VALUE[t] for t in unseen if everything & fastplay.BEATS[t])
                values[move_code(q, cell, planted)] = (
                    n * (pts + qp + hand_points(kept, everything) - rival) + new_tile
                )
        garden[cell] = topiary.UNKNOWN
    return values


def _lines_with(garden, cell, tile, rest, through_mine, through_free):
    """With ``tile`` face up at ``cell``: the viewer's points and seen tiles (``rest`` holds
    those of the viewer's lines that miss the cell), and each free line through the cell."""
    garden[cell] = tile
    pts, mask = rest
    for q in through_mine:
        qp, qs = line_points(garden, LINES[q])
        pts += qp
        mask |= qs
    return pts, mask, {q: line_points(garden, LINES[q]) for q in through_free}


def _topiary_keep(view: topiary.View, rng: Rng) -> str:
    """Draft: keep the three highest values."""
    scored = {}
    for code in view.move_codes():
        kept = [t for t in range(40) if -code >> t & 1]
        scored[code] = sum(TILE_VALUE[t] for t in kept)
    return topiary.move_name(_pick_best(scored, rng))


def plant_scores(view: topiary.View) -> dict[int, int]:
    """With the viewer's take pending: per plant step code, the viewer's score after it."""
    seat, garden = view.seat, list(view.garden)
    _, cell, took = view.pending
    mine = [p for p, s in enumerate(view.visitors) if s == seat]
    values = {}
    for code in view.move_codes():
        planted = took if code == topiary._PLANT_STEP else code - topiary._PLANT_STEP - 1
        garden[cell] = planted
        points = seen = 0
        for p in mine:
            pts, mask = line_points(garden, LINES[p])
            points += pts
            seen |= mask
        values[code] = points + hand_points([t for t in view.hand if t != planted], seen)
    return values


def _topiary_plant(view, rng) -> str:
    """The plant step of a pending take: the best score knowing the taken tile."""
    return topiary.move_name(_pick_best(plant_scores(view), rng))


def _topiary_greedy(view, rng, budget, iterations) -> str:
    if view.pending is not None:
        return _topiary_plant(view, rng)
    if view.phase == "draft":
        return _topiary_keep(view, rng)
    values = expected_scores(view)
    legal = {code: values[code] for code in view.move_codes()}
    return topiary.move_name(_pick_best(legal, rng))


def _topiary_reward(table: fastplay.Table, seat: int) -> float:
    total, hand = table.totals()
    best_other = max(t for s, t in enumerate(total) if s != seat)
    won = topiary.winners(total, hand, table.first_player) == [seat]
    margin = total[seat] - best_other
    return 0.5 * won + 0.5 / (1.0 + math.exp(-margin / MARGIN_SCALE))


def _topiary_strong(view, rng, budget, iterations) -> str:
    start = time.perf_counter()
    if view.pending is not None:
        return _topiary_plant(view, rng)
    if view.phase == "draft":
        return _topiary_keep(view, rng)
    values = expected_scores(view, rivals=True)
    ranked = sorted(view.move_codes(), key=lambda code: (-values[code], code))
    dealer = fastplay.Dealer(view)
    rand = random.Random(rng.next_u64())
    seat = view.seat

    def rollout(index: int) -> float:
        table = dealer.deal(rand)
        table.play(ranked[index])
        fastplay.playout(table, rand.random)
        return _topiary_reward(table, seat)

    best = _bandit(len(ranked), rollout, start, budget, iterations)
    return topiary.move_name(ranked[best])


def _bandit(arms: int, pull, start: float, budget: float, iterations) -> int:
    """UCB1 over arms in prior order with progressive widening; the most pulled arm."""
    visits = [0] * arms
    means = [0.0] * arms
    spread = [0.0] * arms  # 1 / sqrt(visits): the exploration term without its constant
    deadline = start + budget * BUDGET_SHARE
    clock = time.perf_counter
    total = opened = 0
    while (total < iterations) if iterations is not None else (clock() < deadline):
        width = min(arms, WIDEN_BASE + int(WIDEN_PER_SQRT * math.sqrt(total)))
        if opened < width:
            arm = opened  # arms open in prior order, each pulled once on opening
            opened += 1
        else:
            c = EXPLORATION * math.sqrt(math.log(total))
            scores = [m + c * d for m, d in zip(means[:width], spread[:width], strict=True)]
            arm = scores.index(max(scores))
        reward = pull(arm)
        visits[arm] += 1
        means[arm] += (reward - means[arm]) / visits[arm]
        spread[arm] = 1.0 / math.sqrt(visits[arm])
        total += 1
    return max(range(arms), key=lambda i: (visits[i], -i))


_TOPIARY = {"greedy": _topiary_greedy, "strong": _topiary_strong}


# --------------------------------------------------------------------------- Wizards' Garden


def _flowers(state: wizards_garden.State, seat: int) -> tuple[int, bool]:
    white, black = state.harvested[seat]
    return white + black, state.staff == seat


def _garden_greedy(view, rng, budget, iterations) -> str:
    state = wizards_garden.state_from_view(view)
    seat = view.seat
    scored = {code: _flowers(state.apply_code(code), seat) for code in state.move_codes()}
    return wizards_garden.move_name(_pick_best(scored, rng))


def _garden_value(state, seat: int) -> float:
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


class _GardenSearch:
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
            return _garden_value(state, state.to_move)
        if depth == 0:
            self.cut_off = True
            return _garden_value(state, state.to_move)
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
            return _garden_value(child, state.to_move)
        return -self.negamax(child, depth - 1, -beta, -alpha)


def _garden_strong(view, rng, budget, iterations) -> str:
    start = time.perf_counter()
    state = wizards_garden.state_from_view(view)
    order = sorted(state.move_codes())
    rng.shuffle(order)
    search = _GardenSearch(start + budget * BUDGET_SHARE, iterations)
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
    return wizards_garden.move_name(best_code)


_WIZARDS_GARDEN = {"greedy": _garden_greedy, "strong": _garden_strong}
