"""Bots for both games: ``random``, ``greedy`` and ``strong``. They see a view, never a state.

    from engine import bots, topiary
    from engine.rng import Rng
    view = state.view(state.to_move)
    move = bots.choose_move(view, "strong", rng=Rng(7), budget=1.0)

Levels
------
Bots decide as a player at the table does. A Topiary turn with a take is two decisions: the
take step (``c5:S c4``), then, on the pending view where the taken tile is in the bot's
hand, the plant (``=R3``); ``choose_move`` gives one decision per call.

``random``
    A uniformly random legal step (``view.legal_steps()``), then a uniformly random plant.
``greedy``
    The step with the best immediate gain in the bot's own score. In Topiary a take reveals a
    tile the bot cannot see yet, so greedy maximises the *expected* score: for each tile the
    taken one may be (the tiles the view has not seen, all equally likely under any
    face-down cell) the best plant knowing that tile, averaged (``expected_step_scores``).
    Once the tile is seen, the best plant (``plant_scores``). Everything else in the score
    (visitors, bonus, own hand) is computable from the view. In Wizards' Garden: most
    flowers after the move, then holding the staff. Ties are broken with ``rng``. In a
    Topiary draft, greedy (and strong) keep the three highest values.
``strong``
    Topiary: information-set Monte Carlo search. Each iteration deals the unseen tiles at
    random consistently with the view (``fastplay.Dealer``), picks a root step by UCB1, plays
    it and then random moves to the end, and scores the result for the bot (half for a win,
    half for the margin over the best other seat, squashed). A take step is a chance node:
    the deal fixes the taken tile, and the plant is picked by a bandit of its own for that
    (take, tile), as the player would pick it after looking. A turn can have hundreds of
    steps, so root steps enter in order of their expected margin (greedy's expectation
    minus the best rival's visible points) and a few more as iterations accumulate
    (progressive widening). The most visited step is played. On the pending view, the same
    search runs over the plants with the taken tile known.
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
#: A take's plant bandit opens its k-th plant (k >= 2) after (k - 1)^2 times this many deals.
PLANT_WIDEN_EVERY = 4
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
    """The viewer's next decision, a legal step (the viewer must be to move); ``level`` is
    one of ``LEVELS``.

    In Topiary's play phase that is a step as at the table: ``c5:S`` or the take step
    ``c5:S c4``, never a whole take move; on the pending view after a take step, the plant
    ``=R3`` / ``=*``, chosen knowing the taken tile. A draft move and every Wizards' Garden
    move is one decision. ``budget`` is seconds for the strong bot (per call); ``iterations``
    (optional) caps its iterations instead, for reproducible play.
    """
    game = PLAYERS.get(type(view))
    if game is None:
        raise TypeError(f"bots take a view (state.view(seat)), not {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    if not isinstance(rng, Rng):
        raise TypeError("rng: expected an engine.rng.Rng")
    if view.is_over or view.seat is None or view.seat != view.to_move:
        raise IllegalMove(code="bot_seat_not_to_move", seat=view.seat)
    if level == "random":
        return rng.choice(view.legal_steps())
    if level not in game:
        raise ValueError(f"no {level} bot plays {type(view).__module__}: only random")
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
    A Topiary take is two decisions: ``moves`` (and ``movers``, ``seconds``) hold both
    steps; the record joins them into the finished move.
    """
    levels = tuple(levels)
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    options = module.Options.from_json(module.GAME.table_options(len(levels), {}))
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


def _greedy_basis(view: topiary.View, rivals: bool):
    """What both greedy evaluations start from: the lines' points as they stand, the best
    rival's points (``best_rival(cell)``: with the garden as it is at ``cell``), and each
    place-only move's value, times the number of unseen tiles."""
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
    return (garden, hand, unseen, n, mine, free, points, seen, best_rival, mine_points, values,
            free_set, mine_set)  # fmt: skip


def expected_scores(view: topiary.View, rivals: bool = False) -> dict[int, int]:
    """Per legal play-phase move code: the viewer's expected score after it, times the number
    of unseen tiles (an integer, so comparisons are exact on every machine).

    With ``rivals``, the expected points the best other seat's visitors see (visitors and
    bonus: their hands are hidden) are subtracted: the margin the move leaves.
    """
    (garden, hand, unseen, n, mine, free, points, seen, best_rival, mine_points, values,
     free_set, mine_set) = _greedy_basis(view, rivals)  # fmt: skip
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


def plant_scores(view: topiary.View, rivals: bool = False) -> dict[int, int]:
    """With the viewer's take pending: per plant step code, the viewer's score after it
    (the taken tile is known now). With ``rivals``, minus the best other seat's visible
    points (visitors and bonus)."""
    seat, garden, visitors = view.seat, list(view.garden), view.visitors
    _, cell, took = view.pending
    mine = [p for p, s in enumerate(visitors) if s == seat]
    others = [p for p, s in enumerate(visitors) if s >= 0 and s != seat]
    values = {}
    for code in view.move_codes():
        planted = took if code == topiary.PLANT_STEP else code - topiary.PLANT_STEP - 1
        garden[cell] = planted
        points = seen = 0
        for p in mine:
            pts, mask = line_points(garden, LINES[p])
            points += pts
            seen |= mask
        rival = 0
        if rivals and others:
            by_seat = dict.fromkeys((s for s in range(view.players) if s != seat), 0)
            for p in others:
                by_seat[visitors[p]] += line_points(garden, LINES[p])[0]
            rival = max(by_seat.values())
        values[code] = points + hand_points([t for t in view.hand if t != planted], seen) - rival
    return values


def _topiary_plant(view, rng) -> str:
    """Greedy's plant step of a pending take: the best score knowing the taken tile."""
    return topiary.move_name(_pick_best(plant_scores(view), rng))


def expected_step_scores(view: topiary.View, rivals: bool = False) -> dict[int, int]:
    """Per first decision of a play turn (``view.step_codes()``): the viewer's expected score
    after the turn, times the number of unseen tiles (an integer, exact everywhere).

    A place-only step scores as the move does. A take step is a chance node: for each tile
    the taken one may be (the view's unseen tiles, equally likely), the best plant *given
    that tile* (plant it, or plant a hand tile and keep it), averaged over the tiles; the
    player chooses the plant after looking, so the expectation is of the best, not the best
    of the expectations. With ``rivals``, as ``expected_scores``: the best other seat's
    visible points are subtracted, and the plant maximises the margin.
    """
    (garden, hand, unseen, _n, mine, free, points, seen, best_rival, mine_points, values,
     free_set, mine_set) = _greedy_basis(view, rivals)  # fmt: skip
    cells = {c for p in free for c in LINES[p] if garden[c] == topiary.UNKNOWN}
    for cell in sorted(cells):
        through_mine = [q for q in POSITIONS_THROUGH[cell] if q in mine_set]
        through_free = [q for q in POSITIONS_THROUGH[cell] if q in free_set]
        rest_points = mine_points - sum(points[q] for q in through_mine)
        rest_seen = 0
        for q in mine:
            if q not in through_mine:
                rest_seen |= seen[q]
        rest = (rest_points, rest_seen)
        # Planting a hand tile h: the garden does not depend on the taken tile; the taken
        # tile joins the hand and scores if a seen tile beats it.
        keeps = {q: [] for q in through_free}
        for planted in hand:
            pts, mask, lines = _lines_with(garden, cell, planted, rest, through_mine, through_free)
            rival = best_rival(cell)
            kept = [t for t in hand if t != planted]
            for q in through_free:
                qp, qs = lines[q]
                everything = mask | qs
                keeps[q].append((pts + qp + hand_points(kept, everything) - rival, everything))
        sums = dict.fromkeys(through_free, 0)
        for tile in unseen:
            pts, mask, lines = _lines_with(garden, cell, tile, rest, through_mine, through_free)
            rival = best_rival(cell)
            beaten_by, value = fastplay.BEATS[tile], TILE_VALUE[tile]
            for q in through_free:
                qp, qs = lines[q]
                best = pts + qp + hand_points(hand, mask | qs) - rival
                for base, everything in keeps[q]:
                    kept_value = base + value if everything & beaten_by else base
                    if kept_value > best:
                        best = kept_value
                sums[q] += best
        for q in through_free:
            values[topiary.TAKE_STEP + q * 26 + cell] = sums[q]
        garden[cell] = topiary.UNKNOWN
    return values


def _topiary_greedy(view, rng, budget, iterations) -> str:
    if view.pending is not None:
        return _topiary_plant(view, rng)
    if view.phase == "draft":
        return _topiary_keep(view, rng)
    values = expected_step_scores(view)
    legal = {code: values[code] for code in view.step_codes()}
    return topiary.move_name(_pick_best(legal, rng))


def topiary_margin(total: list[int], seat: int) -> int:
    """``seat``'s total minus the best other seat's: the margin the strong bot's reward
    squashes and the post-game analysis averages (``engine.analysis``)."""
    return total[seat] - max(t for s, t in enumerate(total) if s != seat)


def _topiary_reward(table: fastplay.Table, seat: int) -> float:
    total, hand = table.totals()
    won = topiary.winners(total, hand, table.first_player) == [seat]
    margin = topiary_margin(total, seat)
    return 0.5 * won + 0.5 / (1.0 + math.exp(-margin / MARGIN_SCALE))


def _topiary_strong(view, rng, budget, iterations) -> str:
    start = time.perf_counter()
    if view.phase == "draft":
        return _topiary_keep(view, rng)
    if view.pending is not None:
        return _topiary_strong_plant(view, rng, start, budget, iterations)
    values = expected_step_scores(view, rivals=True)
    ranked = sorted(view.step_codes(), key=lambda code: (-values[code], code))
    dealer = fastplay.Dealer(view)
    rand = random.Random(rng.next_u64())
    seat = view.seat
    hand = list(view.hand)
    mine = [p for p, s in enumerate(view.visitors) if s == seat]
    #: Per (take step, taken tile): the bandit choosing the plant once the tile is seen.
    plant_bandits: dict[tuple[int, int], _PlantBandit] = {}

    def rollout(index: int) -> float:
        table = dealer.deal(rand)
        code = ranked[index]
        if code < topiary.TAKE_STEP:
            table.play(code)
            fastplay.playout(table, rand.random)
            return _topiary_reward(table, seat)
        # A take is a chance node: this deal fixes the taken tile, and the plant is chosen
        # knowing it, by a bandit of its own per (take, tile).
        position, cell = divmod(code - topiary.TAKE_STEP, 26)
        took = table.garden[cell] - FACE_DOWN
        bandit = plant_bandits.get((code, took))
        if bandit is None:
            order = _plant_order(table.garden, [*mine, position], cell, took, hand)
            bandit = plant_bandits[code, took] = _PlantBandit(order)
        plant = bandit.select()
        table.play(move_code(position, cell, None if plant == 0 else hand[plant - 1]))
        fastplay.playout(table, rand.random)
        reward = _topiary_reward(table, seat)
        bandit.update(plant, reward)
        return reward

    best = _bandit(len(ranked), rollout, start, budget, iterations)
    return topiary.move_name(ranked[best])


def _topiary_strong_plant(view, rng, start: float, budget: float, iterations) -> str:
    """The plant of a pending take, searched knowing the taken tile: one arm per plant."""
    values = plant_scores(view, rivals=True)
    ranked = sorted(view.move_codes(), key=lambda code: (-values[code], code))
    dealer = fastplay.Dealer(view)
    rand = random.Random(rng.next_u64())
    seat = view.seat
    _, cell, took = view.pending

    def rollout(index: int) -> float:
        table = dealer.deal(rand)
        code = ranked[index]
        table.plant(cell, took if code == topiary.PLANT_STEP else code - topiary.PLANT_STEP - 1)
        fastplay.playout(table, rand.random)
        return _topiary_reward(table, seat)

    best = _bandit(len(ranked), rollout, start, budget, iterations)
    return topiary.move_name(ranked[best])


def _plant_order(garden, lines_of_mine, cell: int, took: int, hand) -> list[int]:
    """Plants (0: the taken tile, i: ``hand[i - 1]``) best first by the mover's score after
    it, the taken tile known; ties keep that order."""
    scores = []
    for planted in (took, *hand):
        saved, garden[cell] = garden[cell], planted
        points = seen = 0
        for p in lines_of_mine:
            pts, mask = line_points(garden, LINES[p])
            points += pts
            seen |= mask
        garden[cell] = saved
        kept = [t for t in (took, *hand) if t != planted]
        scores.append(points + hand_points(kept, seen))
    return sorted(range(len(scores)), key=lambda i: -scores[i])


class _PlantBandit:
    """UCB1 over the plants of one take once the taken tile is known, widened slowly in
    prior order: most (take, tile) pairs are dealt only a few times, and trying every plant
    once would fill the take's value with plants a player would not choose."""

    __slots__ = ("means", "opened", "order", "total", "visits")

    def __init__(self, order: list[int]):
        self.order = order
        self.visits = [0] * len(order)
        self.means = [0.0] * len(order)
        self.total = 0
        self.opened = 0

    def select(self) -> int:
        width = min(len(self.order), 1 + int(math.sqrt(self.total / PLANT_WIDEN_EVERY)))
        if self.opened < width:
            self.opened += 1
            return self.order[self.opened - 1]
        c = EXPLORATION * math.sqrt(math.log(self.total))
        opened = self.order[:width]
        return max(opened, key=lambda i: self.means[i] + c / math.sqrt(self.visits[i]))

    def update(self, plant: int, reward: float) -> None:
        self.visits[plant] += 1
        self.means[plant] += (reward - self.means[plant]) / self.visits[plant]
        self.total += 1


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


#: Each game's bot hooks by its View type: a function per level above ``random`` (which
#: plays any game, uniformly over ``view.legal_steps()``). A new game adds its entry here.
PLAYERS = {topiary.View: _TOPIARY, wizards_garden.View: _WIZARDS_GARDEN}
