"""Topiary on plain mutable lists, for the hot loops of bots, playouts and the puzzle solver.

``engine.topiary`` keeps states immutable and checked; searching millions of positions
needs scratch arrays instead. This module reads a state or a view into a ``Table`` of
plain lists, deals the tiles a viewer cannot see (a *determinization*), plays random
games to the end, and scores sight lines with precomputed tables. Tile, cell, position
and move codes are ``engine.topiary``'s (see its docstring).

A sight line's scoring is summarised as ``(points, seen)``: points are the values seen
plus the type bonus, and ``seen`` is a bitmask of the tiles seen (bit ``tile``). A hand
tile scores when ``seen & BEATS[tile]`` is non-zero: ``BEATS[tile]`` holds the tiles of
its type with a larger value, so one AND answers rule 3 for any union of lines.
"""

from __future__ import annotations

import random

from engine import topiary
from engine.topiary import FACE_DOWN, LINES, NO_TAKE, TILE_VALUE, UNKNOWN

PLANTS = 41
#: Per tile: the bitmask of same-type tiles of larger value (rule 3 of scoring).
BEATS = tuple(sum(1 << (t - t % 5 + v) for v in range(t % 5 + 1, 5)) for t in range(40))
#: Per cell: the positions whose sight line holds it.
POSITIONS_THROUGH = tuple(
    tuple(p for p, line in enumerate(LINES) if cell in line) for cell in range(25)
)


def move_code(position: int, cell: int | None = None, plant: int | None = None) -> int:
    """The ``engine.topiary`` move code of placing at ``position``, taking ``cell``, planting
    ``plant`` (a hand tile, or None for the taken tile itself)."""
    if cell is None:
        return (position * 26 + NO_TAKE) * PLANTS
    return (position * 26 + cell) * PLANTS + (0 if plant is None else plant + 1)


def line_points(garden, line) -> tuple[int, int]:
    """``(points, seen)`` of one sight line: values seen plus type bonus, and the seen tiles."""
    top = points = seen = kinds = pairs = 0
    for cell in line:
        tile = garden[cell]
        if tile >= FACE_DOWN:
            continue
        value = tile % 5 + 1
        if value > top:
            top = value
            points += value
            seen |= 1 << tile
            kind = 1 << (tile // 5)
            if kinds & kind:
                # The second tile of a type adds 2 (k = 2), each later one adds 1 more.
                points += 1 if pairs & kind else 2
                pairs |= kind
            kinds |= kind
    return points, seen


def hand_points(hand, seen: int) -> int:
    """Points from tiles in hand for a player whose visitors see the tiles in ``seen``."""
    return sum(TILE_VALUE[t] for t in hand if seen & BEATS[t])


def totals(garden, visitors, hands, players: int) -> tuple[list[int], list[int]]:
    """Every seat's (total, hand points) for a position with known hands."""
    points = [0] * players
    seen = [0] * players
    for p, seat in enumerate(visitors):
        if seat >= 0:
            pts, mask = line_points(garden, LINES[p])
            points[seat] += pts
            seen[seat] |= mask
    hand = [hand_points(hands[s], seen[s]) for s in range(players)]
    return [points[s] + hand[s] for s in range(players)], hand


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
        if isinstance(source, topiary.State):
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


class Dealer:
    """Deals full tables consistent with everything a view knows (determinizations).

    Unseen tiles (face-down cells, other hands, the box) are exchangeable for the viewer,
    except in a draft: the tiles the viewer passed on can only be in the hands of seats
    earlier in turn order or in the box, so they are dealt among those slots first.
    """

    def __init__(self, view):
        if view.phase != "play" or view.seat is None:
            raise ValueError("determinizations are dealt for a seated view in the play phase")
        if view.pending is not None and view.seat != view.to_move:
            raise ValueError("determinizations are dealt for the taker of a pending take only")
        self.table = Table(view)
        seat = view.seat
        players = self.table.players
        self.unseen = list(view.unseen_tiles())
        self.down_cells = [c for c in range(25) if self.table.garden[c] == UNKNOWN]
        self.others = [s for s in range(players) if s != seat]
        hand_slots = 3 * len(self.others)
        passed = view.passed_on[seat] if view.passed_on is not None else None
        self.passed = [t for t in self.unseen if passed and t in passed]
        order = [(view.first_player + i) % players for i in range(players)]
        earlier = set(order[: order.index(seat)])
        # Slots after the garden cells: 3 per other seat in ``others`` order, then the box.
        first_hand = len(self.down_cells)
        self.passed_slots = [
            first_hand + 3 * i + k
            for i, s in enumerate(self.others)
            if s in earlier
            for k in range(3)
        ] + list(range(first_hand + hand_slots, len(self.unseen)))

    def deal(self, rng: random.Random) -> Table:
        """A random full table consistent with the view."""
        table = self.table.copy()
        if self.passed:
            slots = self.passed_slots[:]
            rng.shuffle(slots)
            order: list[int | None] = [None] * len(self.unseen)
            for tile, slot in zip(self.passed, slots, strict=False):
                order[slot] = tile
            rest = [t for t in self.unseen if t not in self.passed]
            rng.shuffle(rest)
            it = iter(rest)
            tiles = [next(it) if t is None else t for t in order]
        else:
            # A sort on random keys is a uniform shuffle, and several times faster here.
            tiles = sorted(self.unseen, key=lambda _: rng.random())
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
