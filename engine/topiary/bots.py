"""Topiary's bots (``engine.bots`` dispatches to them through ``GAME.bots``).

A Topiary turn with a take is two decisions: the take step (``c5:S c4``), then, on the
pending view where the taken tile is in the bot's hand, the plant (``=R3``); a bot gives
one decision per call. ``random`` (any game's, in ``engine.bots``) is uniform over
``view.legal_steps()``.

``greedy``
    The step with the best immediate gain in the bot's own score. A take reveals a tile the
    bot cannot see yet, so greedy maximises the *expected* score: for each tile the taken
    one may be (the tiles the view has not seen, all equally likely under any face-down
    cell) the best plant knowing that tile, averaged (``expected_step_scores``). Once the
    tile is seen, the best plant (``plant_scores``). Everything else in the score
    (visitors, bonus, own hand) is computable from the view. Ties are broken with ``rng``.
    In a draft, greedy (and strong) keep the three highest values.
``strong``
    Information-set Monte Carlo search. Each iteration deals the unseen tiles at random
    consistently with the view (``fastplay.determinizations``: compiled playouts when built,
    the same games either way), picks a root step by UCB1, plays it
    and then random moves to the end, and scores the result for the bot (half for a win,
    half for the margin over the best other seat, squashed). A take step is a chance node:
    the deal fixes the taken tile, and the plant is picked by a bandit of its own for that
    (take, tile), as the player would pick it after looking. A turn can have hundreds of
    steps, so root steps enter in order of their expected margin (greedy's expectation
    minus the best rival's visible points) and a few more as iterations accumulate
    (progressive widening). The most visited step is played. On the pending view, the same
    search runs over the plants with the taken tile known.
``master``
    The strong search with guided playouts instead of random ones and a second a decision
    (``engine.bots.SECONDS``). A guided player (``fastplay.guided_playout``) makes a quarter
    of its moves at random, as strong's playouts do; for the others it draws three free
    positions and places where its best take is worth the most to it: the points of that
    sight line and of its hand (a hand tile scores once its visitors see a larger one of
    the type), plus what the take changes on the other occupied lines through the taken
    cell (its own gained, the rivals' lost). Before that playout, the next seat's reply to
    the searched step is searched too: a bandit per root step over the free positions,
    opened best first, the reply placing with its best take and scored by that seat's own
    reward (``_finisher``), so a step that leaves the opponent a good answer is judged by
    it. Its iterations cost about six times strong's (docs/BENCHMARKS.md "Strong
    decisions"); its games look like the ones players build, so a step is judged against
    players who take, plant and block as their lines and hands ask. Same deals, same
    reward, same root and plant bandits as strong.
"""

from __future__ import annotations

import math
import time

from engine import search
from engine.rng import Rng
from engine.search import EXPLORATION, pick_best
from engine.topiary.board import FACE_DOWN, LINES, TILE_VALUE, UNKNOWN
from engine.topiary.fastplay import (
    POSITIONS_THROUGH,
    compiled_module,
    determinizations,
    hand_points,
    line_points,
    move_code,
)
from engine.topiary.moves import PLANT_STEP, TAKE_STEP, move_name
from engine.topiary.scoring import BEATS, lines_points
from engine.topiary.view import View

#: A take's plant bandit opens its k-th plant (k >= 2) after (k - 1)^2 times this many deals.
PLANT_WIDEN_EVERY = 4
#: Master's playouts (``fastplay.guided_playout``): a quarter of the moves random, the others
#: the best of three positions drawn at random (docs/decisions/0021).
MASTER_GUIDE = (0.25, 3)
#: Master's searched replies open their k-th position after (k - 1)^2 times this many pulls.
MASTER_REPLY_WIDEN_EVERY = 1
#: The reward's margin term is 1 / (1 + exp(-margin / MARGIN_SCALE)).
MARGIN_SCALE = 6.0


def _greedy_basis(view: View, rivals: bool):
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


def expected_scores(view: View, rivals: bool = False) -> dict[int, int]:
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
                new_tile = sum(TILE_VALUE[t] for t in unseen if everything & BEATS[t])
                values[move_code(q, cell, planted)] = (
                    n * (pts + qp + hand_points(kept, everything) - rival) + new_tile
                )
        garden[cell] = UNKNOWN
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


def _keep(view: View, rng: Rng) -> str:
    """Draft: keep the three highest values."""
    scored = {}
    for code in view.move_codes():
        kept = [t for t in range(40) if -code >> t & 1]
        scored[code] = sum(TILE_VALUE[t] for t in kept)
    return move_name(pick_best(scored, rng))


def plant_scores(view: View, rivals: bool = False) -> dict[int, int]:
    """With the viewer's take pending: per plant step code, the viewer's score after it
    (the taken tile is known now). With ``rivals``, minus the best other seat's visible
    points (visitors and bonus)."""
    seat, garden, visitors = view.seat, list(view.garden), view.visitors
    _, cell, took = view.pending
    mine = [p for p, s in enumerate(visitors) if s == seat]
    others = [p for p, s in enumerate(visitors) if s >= 0 and s != seat]
    values = {}
    for code in view.move_codes():
        planted = took if code == PLANT_STEP else code - PLANT_STEP - 1
        garden[cell] = planted
        points, seen = lines_points(garden, mine)
        rival = 0
        if rivals and others:
            by_seat = dict.fromkeys((s for s in range(view.players) if s != seat), 0)
            for p in others:
                by_seat[visitors[p]] += line_points(garden, LINES[p])[0]
            rival = max(by_seat.values())
        values[code] = points + hand_points([t for t in view.hand if t != planted], seen) - rival
    return values


def _plant(view, rng) -> str:
    """Greedy's plant step of a pending take: the best score knowing the taken tile."""
    return move_name(pick_best(plant_scores(view), rng))


def expected_step_scores(view: View, rivals: bool = False) -> dict[int, int]:
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
    cells = {c for p in free for c in LINES[p] if garden[c] == UNKNOWN}
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
            beaten_by, value = BEATS[tile], TILE_VALUE[tile]
            for q in through_free:
                qp, qs = lines[q]
                best = pts + qp + hand_points(hand, mask | qs) - rival
                for base, everything in keeps[q]:
                    kept_value = base + value if everything & beaten_by else base
                    if kept_value > best:
                        best = kept_value
                sums[q] += best
        for q in through_free:
            values[TAKE_STEP + q * 26 + cell] = sums[q]
        garden[cell] = UNKNOWN
    return values


def _greedy(view, rng, budget, iterations) -> str:
    if view.pending is not None:
        return _plant(view, rng)
    if view.phase == "draft":
        return _keep(view, rng)
    values = expected_step_scores(view)
    legal = {code: values[code] for code in view.step_codes()}
    return move_name(pick_best(legal, rng))


def margin(total: list[int], seat: int) -> int:
    """``seat``'s total minus the best other seat's: the margin the strong bot's reward
    squashes and the post-game analysis averages (``engine.topiary.analysis``)."""
    return total[seat] - max(t for s, t in enumerate(total) if s != seat)


def _strong(view, rng, budget, iterations, guide=None, reply_every=None) -> str:
    start = time.perf_counter()
    if view.phase == "draft":
        return _keep(view, rng)
    if view.pending is not None:
        return _strong_plant(view, rng, start, budget, iterations, guide, reply_every)
    values = expected_step_scores(view, rivals=True)
    ranked = sorted(view.step_codes(), key=lambda code: (-values[code], code))
    deal, play_out = determinizations(view, rng.next_u64(), guide)
    seat = view.seat
    hand = list(view.hand)
    mine = [p for p, s in enumerate(view.visitors) if s == seat]
    #: Per (take step, taken tile): the bandit choosing the plant once the tile is seen.
    plant_bandits: dict[tuple[int, int], _PriorBandit] = {}
    finish = _finisher(view, play_out, reply_every)

    def rollout(index: int) -> float:
        table = deal()
        code = ranked[index]
        if code < TAKE_STEP:
            table.play(code)
            return finish(table, code)
        # A take is a chance node: this deal fixes the taken tile, and the plant is chosen
        # knowing it, by a bandit of its own per (take, tile).
        position, cell = divmod(code - TAKE_STEP, 26)
        took = table.at(cell) - FACE_DOWN
        bandit = plant_bandits.get((code, took))
        if bandit is None:
            order = table.plant_order([*mine, position], cell, took, hand)
            bandit = plant_bandits[code, took] = _prior_bandit(order, PLANT_WIDEN_EVERY)
        plant = bandit.select()
        table.play(move_code(position, cell, None if plant == 0 else hand[plant - 1]))
        reward = finish(table, code)
        bandit.update(plant, reward)
        return reward

    best = _bandit(len(ranked), rollout, start, budget, iterations)
    return move_name(ranked[best])


def _strong_plant(view, rng, start: float, budget: float, iterations, guide, reply_every) -> str:
    """The plant of a pending take, searched knowing the taken tile: one arm per plant."""
    values = plant_scores(view, rivals=True)
    ranked = sorted(view.move_codes(), key=lambda code: (-values[code], code))
    deal, play_out = determinizations(view, rng.next_u64(), guide)
    _, cell, took = view.pending
    finish = _finisher(view, play_out, reply_every)

    def rollout(index: int) -> float:
        table = deal()
        code = ranked[index]
        table.plant(cell, took if code == PLANT_STEP else code - PLANT_STEP - 1)
        return finish(table, code)

    best = _bandit(len(ranked), rollout, start, budget, iterations)
    return move_name(ranked[best])


def _finisher(view: View, play_out, reply_every: int | None):
    """``finish(table, step)``: after the bot's ``step`` on a dealt ``table``, the rest of
    the game played out, and the bot's reward.

    With ``reply_every`` (master), the next seat's reply is searched before the playout: a
    bandit per root step over the positions left, opened best first by what the reply's
    best take there is worth to that seat (``Table.worth_at``, on the first deal that
    reaches it) and one more each time its pulls reach ``(k - 1)^2 * reply_every``; the
    reply places there with its best take (``Table.play_best_at``) and the bandit learns
    that seat's own reward. So a step is judged by the answer the opponent finds to it, not
    by a guided player's first guess.
    """
    seat = view.seat
    if reply_every is None:

        def finish(table, step: int) -> float:
            play_out(table)
            return table.reward(seat, MARGIN_SCALE)

        return finish

    positions = view.options.positions
    replies: dict[int, tuple[list[int], _PriorBandit]] = {}

    def finish_after_a_reply(table, step: int) -> float:
        replier = table.to_move
        if replier < 0:  # the step ended the game
            return table.reward(seat, MARGIN_SCALE)
        node = replies.get(step)
        if node is None:
            visitors = table.visitors
            free = [p for p in positions if visitors[p] < 0]
            worth = [table.worth_at(p) for p in free]
            order = sorted(range(len(free)), key=lambda i: -worth[i])
            node = replies[step] = (free, _prior_bandit(order, reply_every))
        free, bandit = node
        arm = bandit.select()
        table.play_best_at(free[arm])
        play_out(table)
        bandit.update(arm, table.reward(replier, MARGIN_SCALE))
        return table.reward(seat, MARGIN_SCALE)

    return finish_after_a_reply


def _bandit(arms: int, pull, start: float, budget: float, iterations) -> int:
    """``engine.search.bandit``, in C when the compiled module is built: the same choice,
    its bookkeeping (most of an iteration's cost in Python) a few times cheaper."""
    fast = compiled_module()
    if fast is None:
        return search.bandit(arms, pull, start, budget, iterations)
    return fast.bandit(arms, pull, start, budget, iterations, EXPLORATION, search.WIDEN_BASE,
                       search.WIDEN_PER_SQRT, search.BUDGET_SHARE)  # fmt: skip


def _prior_bandit(order: list[int], widen_every: int):
    """A ``_PriorBandit`` over the arms in ``order`` (best first), in C when the compiled
    module is built."""
    fast = compiled_module()
    if fast is None:
        return _PriorBandit(order, widen_every)
    return fast.PriorBandit(order, widen_every, EXPLORATION)


class _PriorBandit:
    """UCB1 over arms opened slowly in prior order (a take's plants once the taken tile is
    known; master's replies): the k-th arm (k >= 2) opens after (k - 1)^2 * ``widen_every``
    pulls. Most (take, tile) pairs are dealt only a few times, and trying every plant once
    would fill the take's value with plants a player would not choose."""

    __slots__ = ("means", "opened", "order", "total", "visits", "widen_every")

    def __init__(self, order: list[int], widen_every: int):
        self.order = order
        self.widen_every = widen_every
        self.visits = [0] * len(order)
        self.means = [0.0] * len(order)
        self.total = 0
        self.opened = 0

    def select(self) -> int:
        width = min(len(self.order), 1 + int(math.sqrt(self.total / self.widen_every)))
        if self.opened < width:
            self.opened += 1
            return self.order[self.opened - 1]
        c = EXPLORATION * math.sqrt(math.log(self.total))
        opened = self.order[:width]
        return max(opened, key=lambda i: self.means[i] + c / math.sqrt(self.visits[i]))

    def update(self, arm: int, reward: float) -> None:
        self.visits[arm] += 1
        self.means[arm] += (reward - self.means[arm]) / self.visits[arm]
        self.total += 1


def _master(view, rng, budget, iterations) -> str:
    """The strong search over guided playouts (``MASTER_GUIDE``) after searched replies
    (``MASTER_REPLY_WIDEN_EVERY``)."""
    return _strong(view, rng, budget, iterations, MASTER_GUIDE, MASTER_REPLY_WIDEN_EVERY)


#: The players above ``random``, by level (``GAME.bots``).
PLAYERS = {"greedy": _greedy, "strong": _strong, "master": _master}

#: Each level's strength measured by ``bench/levels.py`` (2-player games, seeded deals from
#: both seats, a maximum-likelihood Elo fit anchored at greedy = 1500; master: strong's fit
#: plus master's 192 fresh games against strong at 21,000 iterations; the tables and error
#: bars are in docs/BENCHMARKS.md, "Levels"). ``GAME.bot_ratings``: the site shows it and
#: starts the bot accounts' ratings from it.
MEASURED_RATINGS = {"random": 989, "greedy": 1500, "strong": 1690, "master": 1951}
