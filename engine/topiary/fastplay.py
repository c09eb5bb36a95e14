"""Topiary on plain mutable lists, for the hot loops of bots, playouts and the puzzle solver.

``engine.topiary`` keeps states immutable and checked; searching millions of positions
needs scratch arrays instead. This module reads a state or a view into a ``Table`` of
plain lists, deals the tiles a viewer cannot see (a *determinization*, by
``topiary.Dealer``), plays random games to the end, and scores them. Tile, cell, position
and move codes are ``engine.topiary``'s (see its docstring). ``engine.fastplay`` is this
module under its older name.

Scoring is ``engine.topiary.scoring``'s one core, re-exported here: a sight line's scoring is
summarised as ``(points, seen)`` by ``line_points``: points are the values seen plus the
type bonus, and ``seen`` is a bitmask of the tiles seen (bit ``tile``). A hand tile scores
when ``seen & BEATS[tile]`` is non-zero (``hand_points``).

This module is the reference. The searches draw their determinizations and playouts from
``determinizations``, which uses ``engine.topiary._compiled`` (the same deals, playouts and
scores in C, built by ``make venv``) when it is built, and this module when it is not: both
draw one ``random.Random`` stream the same way, so a search plays the same games either way
and only its speed differs (docs/decisions/0018-compiled-playouts.md).
"""

from __future__ import annotations

import math
import random

from engine.topiary.board import FACE_DOWN, LINES
from engine.topiary.dealer import Dealer as _StateDealer
from engine.topiary.moves import NO_TAKE

# The scoring core is topiary's (BEATS, line_points, hand_points, totals), re-exported for
# the hot loops of the bots and the solver.
from engine.topiary.scoring import BEATS as BEATS
from engine.topiary.scoring import hand_points as hand_points
from engine.topiary.scoring import line_points as line_points
from engine.topiary.scoring import lines_points, totals, winners
from engine.topiary.state import State

try:
    import engine.topiary._compiled as compiled
except ImportError:  # not built (``make venv`` builds it): the reference plays the same games
    compiled = None

PLANTS = 41
#: Below any guided move's worth (a line and a hand score at least 0, and a take loses at
#: most the rivals' lines through one cell).
NO_MOVE = -1_000_000
#: Per cell: the positions whose sight line holds it.
POSITIONS_THROUGH = tuple(
    tuple(p for p, line in enumerate(LINES) if cell in line) for cell in range(25)
)


def compiled_module():
    """``engine.topiary._compiled`` when it is built, else None (looked up at each call, so
    a test can play a search without it)."""
    return compiled


def move_code(position: int, cell: int | None = None, plant: int | None = None) -> int:
    """The ``engine.topiary`` move code of placing at ``position``, taking ``cell``, planting
    ``plant`` (a hand tile, or None for the taken tile itself)."""
    if cell is None:
        return (position * 26 + NO_TAKE) * PLANTS
    return (position * 26 + cell) * PLANTS + (0 if plant is None else plant + 1)


class Table:
    """A position as mutable lists: garden codes, visitors, unplaced, hands, mover.

    Built from a full state (everything known) or from a view, where unknown face-down
    cells are ``UNKNOWN`` and other hands ``None`` until ``determinize`` deals them. With a
    take pending, the taker's hand holds 4 tiles and the cell is ``topiary.GAP`` until
    ``plant``.
    """

    __slots__ = (
        "box",
        "first_player",
        "garden",
        "hands",
        "must_pick",
        "players",
        "positions",
        "to_move",
        "unplaced",
        "visitors",
    )

    def __init__(self, source):
        self.garden = list(source.garden)
        self.visitors = list(source.visitors)
        self.unplaced = list(source.unplaced)
        self.players = source.options.players
        self.positions = source.options.positions
        self.must_pick = source.options.must_pick
        self.to_move = source.to_move
        self.first_player = source.first_player
        if isinstance(source, State):
            self.hands = [list(h) for h in source.hands]
            self.box = list(source.box)
        else:
            self.hands = [
                list(source.hand) if s == source.seat else None for s in range(self.players)
            ]
            self.box = None

    def copy(self) -> Table:
        """An independent copy (hands copied too)."""
        other = Table.__new__(Table)
        other.garden = self.garden[:]
        other.visitors = self.visitors[:]
        other.unplaced = self.unplaced[:]
        other.hands = [None if h is None else h[:] for h in self.hands]
        other.box = None if self.box is None else self.box[:]
        for name in ("players", "positions", "must_pick", "to_move", "first_player"):
            setattr(other, name, getattr(self, name))
        return other

    def free_positions(self) -> list[int]:
        """The unoccupied positions in play."""
        visitors = self.visitors
        return [p for p in self.positions if visitors[p] < 0]

    def play(self, code: int) -> None:
        """Play a legal play-phase move code in place (unchecked)."""
        rest, plant = divmod(code, PLANTS)
        p, cell = divmod(rest, 26)
        mover = self.to_move
        if cell != NO_TAKE:
            garden = self.garden
            taken = garden[cell] - FACE_DOWN
            if plant:
                hand = self.hands[mover]
                hand[hand.index(plant - 1)] = taken
                garden[cell] = plant - 1
            else:
                garden[cell] = taken
        self.visitors[p] = mover
        self.unplaced[mover] -= 1
        self.to_move = self._next_seat(mover)

    def plant(self, cell: int, tile: int) -> None:
        """Finish the mover's pending take in place: ``tile`` from the hand of 4 goes face up
        into the gap at ``cell`` (unchecked)."""
        mover = self.to_move
        self.hands[mover].remove(tile)
        self.garden[cell] = tile
        self.to_move = self._next_seat(mover)

    def _next_seat(self, mover: int) -> int:
        players = self.players
        unplaced = self.unplaced
        for step in range(1, players + 1):
            seat = (mover + step) % players
            if unplaced[seat]:
                return seat
        return -1

    def totals(self) -> tuple[list[int], list[int]]:
        """Every seat's (total, hand points); hands must be known."""
        return totals(self.garden, self.visitors, self.hands, self.players)

    def at(self, cell: int) -> int:
        """The garden's code at ``cell``."""
        return self.garden[cell]

    def worth_at(self, p: int) -> int:
        """What the mover's best take at free position ``p`` is worth to it, as a guided
        playout judges it (``_best_take``)."""
        return self._best_take_at(p)[2]

    def play_best_at(self, p: int) -> None:
        """The mover places at ``p`` and makes its best take there, as a guided playout's
        greedy move does (``_best_take``): a searched reply's move."""
        downs, k, _ = self._best_take_at(p)
        if k < 0:
            self.play(move_code(p))
        else:
            slot = k & 3
            plant = self.hands[self.to_move][slot - 1] if slot else None
            self.play(move_code(p, downs[k >> 2], plant))

    def _best_take_at(self, p: int) -> tuple[list[int], int, int]:
        garden, visitors, seat = self.garden, self.visitors, self.to_move
        seen = 0
        for q, owner in enumerate(visitors):
            if owner == seat:
                seen |= line_points(garden, LINES[q])[1]
        downs = [c for c in LINES[p] if garden[c] >= FACE_DOWN]
        no_take = 0 if self.must_pick else 1
        k, worth = _best_take(garden, visitors, seat, p, downs, self.hands[seat], no_take, seen)
        return downs, k, worth

    def reward(self, seat: int, scale: float) -> float:
        """The strong bot's reward for ``seat`` at the end: half for winning (alone, the
        rules' default tie-break), half for the margin over the best other seat squashed by
        1 / (1 + exp(-margin / scale))."""
        total, hand = self.totals()
        won = winners(total, hand, self.first_player) == [seat]
        ahead = total[seat] - max(t for s, t in enumerate(total) if s != seat)
        return 0.5 * won + 0.5 / (1.0 + math.exp(-ahead / scale))

    def plant_order(self, lines_of_mine, cell: int, took: int, hand) -> list[int]:
        """The plants of a take at ``cell`` (0: the taken tile ``took``, i: ``hand[i - 1]``)
        best first by the mover's score after it (the lines at ``lines_of_mine`` and the
        hand kept); ties keep that order. The garden is left as it was."""
        garden = self.garden
        tiles = (took, *hand)
        scores = []
        saved = garden[cell]
        for planted in tiles:
            garden[cell] = planted
            points, seen = lines_points(garden, lines_of_mine)
            scores.append(points + hand_points([t for t in tiles if t != planted], seen))
        garden[cell] = saved
        return sorted(range(len(scores)), key=lambda i: -scores[i])


class Dealer(_StateDealer):
    """``topiary.Dealer``'s deals as scratch tables: the bots' determinizations.

    For a seated view in the play phase (a ``Table`` has no draft and no unknown pending
    tile); with a take pending, only the taker's view.
    """

    def __init__(self, view):
        if view.phase != "play" or view.seat is None:
            raise ValueError("determinizations are dealt for a seated view in the play phase")
        if view.pending is not None and view.seat != view.to_move:
            raise ValueError("determinizations are dealt for the taker of a pending take only")
        super().__init__(view)
        self.table = Table(view)

    def deal(self, rng: random.Random) -> Table:
        """A random full table consistent with the view."""
        table = self.table.copy()
        tiles = self.tiles(rng)
        garden = table.garden
        for i, cell in enumerate(self.down_cells):
            garden[cell] = tiles[i] + FACE_DOWN
        at = len(self.down_cells)
        for s in self.others:
            table.hands[s] = tiles[at : at + 3]
            at += 3
        table.box = tiles[at:]
        return table


def playout(table: Table, rand) -> None:
    """Play random moves in place to the end of the game.

    The policy draws a free position uniformly, then one of that position's moves
    uniformly (no take, or a face-down cell of its line and one of 4 plants). One float
    drives both draws: its fractional remainder after choosing the position is uniform too.
    """
    garden = table.garden
    visitors = table.visitors
    hands = table.hands
    unplaced = table.unplaced
    players = table.players
    no_take = 0 if table.must_pick else 1
    free = [p for p in table.positions if visitors[p] < 0]
    seat = table.to_move
    left = sum(unplaced)
    while left:
        r = rand() * len(free)
        i = int(r)
        fraction = r - i
        p = free[i]
        free[i] = free[-1]
        free.pop()
        downs = [c for c in LINES[p] if garden[c] >= FACE_DOWN]
        if downs:
            k = int(fraction * (4 * len(downs) + no_take)) - no_take
            if k >= 0:
                cell = downs[k >> 2]
                taken = garden[cell] - FACE_DOWN
                slot = k & 3
                if slot:
                    hand = hands[seat]
                    garden[cell] = hand[slot - 1]
                    hand[slot - 1] = taken
                else:
                    garden[cell] = taken
        visitors[p] = seat
        unplaced[seat] -= 1
        left -= 1
        if left:
            seat = (seat + 1) % players
            while not unplaced[seat]:
                seat = (seat + 1) % players
    table.to_move = -1


def guided_playout(table: Table, rand, explore: float, candidates: int) -> None:
    """Play the game to the end in place, mostly greedy over each move's gain: master's
    playouts (``explore``, in (0, 1]: the share of random moves; ``candidates``: how many
    positions a greedy move looks at).

    One float per move: below ``explore``, the move is ``playout``'s random one, drawn from
    that float scaled to [0, 1). Otherwise the mover draws ``candidates`` free positions
    (one float each, repeats allowed) and places at the one where a take is worth the most
    to it, making that take: the points of the sight line and of the mover's hand (each
    hand tile that a tile seen by the mover's visitors, this one's included, beats), plus
    what the take changes on the other occupied lines through its cell (the mover's gained,
    the rivals' lost); the first best in ``playout``'s order (no take, then each face-down
    cell of the line with plants 0-3).
    What each seat's visitors see is summed up as the playout starts and grows with each
    visitor placed (a tile later planted in front of an older visitor's line does not
    change it): cheap, and the gardens and hands are built as players build them, not at
    random.
    """
    garden = table.garden
    visitors = table.visitors
    hands = table.hands
    unplaced = table.unplaced
    players = table.players
    no_take = 0 if table.must_pick else 1
    free = [p for p in table.positions if visitors[p] < 0]
    seen_by = [0] * players
    for p, s in enumerate(visitors):
        if s >= 0:
            seen_by[s] |= line_points(garden, LINES[p])[1]
    seat = table.to_move
    left = sum(unplaced)
    while left:
        r = rand()
        if r < explore:
            r = r / explore * len(free)
            i = int(r)
            p = free[i]
            downs = [c for c in LINES[p] if garden[c] >= FACE_DOWN]
            k = int((r - i) * (4 * len(downs) + no_take)) - no_take if downs else -1
        else:
            best = NO_MOVE
            for _ in range(candidates):
                j = int(rand() * len(free))
                line = LINES[free[j]]
                j_downs = [c for c in line if garden[c] >= FACE_DOWN]
                j_k, points = _best_take(
                    garden, visitors, seat, free[j], j_downs, hands[seat], no_take, seen_by[seat]
                )
                if points > best:
                    i, k, downs, best = j, j_k, j_downs, points
            p = free[i]
        free[i] = free[-1]
        free.pop()
        if k >= 0:
            cell = downs[k >> 2]
            taken = garden[cell] - FACE_DOWN
            slot = k & 3
            if slot:
                hand = hands[seat]
                garden[cell] = hand[slot - 1]
                hand[slot - 1] = taken
            else:
                garden[cell] = taken
        visitors[p] = seat
        seen_by[seat] |= line_points(garden, LINES[p])[1]
        unplaced[seat] -= 1
        left -= 1
        if left:
            seat = (seat + 1) % players
            while not unplaced[seat]:
                seat = (seat + 1) % players
    table.to_move = -1


def _best_take(
    garden, visitors, seat: int, p: int, downs, hand, no_take: int, seen_by_mover: int
) -> tuple[int, int]:
    """The guided playout's take at position ``p``: ``playout``'s option number (-1: no take)
    worth the most to the mover, the first such, and that worth: the points of ``p``'s sight
    line and of the mover's hand (``seen_by_mover``: the tiles the mover's visitors see),
    plus what the take changes on the other occupied lines through its cell (the mover's
    own gained, the other seats' lost)."""
    line = LINES[p]
    best_k, best = -1, NO_MOVE
    if no_take or not downs:
        points, seen = line_points(garden, line)
        best = points + hand_points(hand, seen_by_mover | seen)
    for d, cell in enumerate(downs):
        code = garden[cell]
        taken = code - FACE_DOWN
        before = _lines_through(garden, visitors, seat, cell, p)
        for slot in range(4):
            if slot == 0:
                garden[cell], kept = taken, hand
            else:
                garden[cell] = hand[slot - 1]
                kept = [*hand[: slot - 1], taken, *hand[slot:]]
            points, seen = line_points(garden, line)
            points += hand_points(kept, seen_by_mover | seen)
            points += _lines_through(garden, visitors, seat, cell, p) - before
            if points > best:
                best_k, best = 4 * d + slot, points
        garden[cell] = code
    return best_k, best


def _lines_through(garden, visitors, seat: int, cell: int, skip: int) -> int:
    """The points of the occupied sight lines through ``cell`` but ``skip``'s: the seat's
    own counted up, the other seats' down."""
    total = 0
    for q in POSITIONS_THROUGH[cell]:
        owner = visitors[q]
        if owner < 0 or q == skip:
            continue
        points = line_points(garden, LINES[q])[0]
        total += points if owner == seat else -points
    return total


def determinizations(view, seed: int, guide: tuple[float, int] | None = None):
    """``(deal, play_out)`` for a search of ``view``: ``deal()`` is a random full table
    consistent with the view, ``play_out(table)`` plays it to the end in place: at random,
    or guided with ``guide`` = (explore, candidates) (``guided_playout``).

    Both draw from one ``random.Random(seed)`` stream, in compiled code when
    ``fastplay.compiled`` is built, here otherwise, with the same results.
    """
    dealer = Dealer(view)
    rand = random.Random(seed)
    if compiled is None:
        if guide is None:
            return (lambda: dealer.deal(rand)), (lambda table: playout(table, rand.random))
        return (lambda: dealer.deal(rand)), (
            lambda table: guided_playout(table, rand.random, *guide)
        )
    stream = compiled.Stream(rand)
    fast_dealer = compiled.Dealer(dealer)
    if guide is None:
        fast_playout = compiled.playout
        return (lambda: fast_dealer.deal(stream)), (lambda table: fast_playout(table, stream))
    guided = compiled.guided_playout
    return (lambda: fast_dealer.deal(stream)), (lambda table: guided(table, stream, *guide))
