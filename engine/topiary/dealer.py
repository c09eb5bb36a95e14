"""The one dealer of the tiles a Topiary view cannot place (the bots' determinizations)."""

from __future__ import annotations

from engine.rng import Rng
from engine.topiary.board import FACE_DOWN, HAND_SIZE, UNKNOWN
from engine.topiary.scoring import _turn_order
from engine.topiary.state import State
from engine.topiary.view import View, _face_down_mask


class Dealer:
    """Deals the tiles a view cannot place at random, consistently with everything it knows.

    The one dealer of hidden tiles: ``sample_state`` builds a ``State`` from a deal and
    ``fastplay.Dealer`` a scratch ``Table`` (the bots' determinizations). A deal fills
    *slots*, in this order: the face-down cells; the taken tile of a pending take the viewer
    did not make (it was face down); 3 per other seat, in seat order; in a draft, the pool in
    flight when the viewer does not know it; the box. Unseen tiles are exchangeable for the
    viewer, except the tiles the viewer passed on in a draft: the garden was dealt before the
    draft, and passes go to the previous seat in turn order, so they can only be in the hands
    of seats earlier in turn order that have drafted, in flight, or in the box. They are
    dealt among those slots first, uniformly, then the rest uniformly.
    """

    def __init__(self, view: View):
        self.view = view
        seat, players = view.seat, view.players
        self.unseen = list(view.unseen_tiles())
        self.down_cells = [c for c in range(25) if view.garden[c] == UNKNOWN]
        self.others = [s for s in range(players) if s != seat]
        self.took_unknown = view.pending is not None and view.pending[2] == UNKNOWN
        in_flight = view.phase == "draft" and view.known_pool() is None
        self.pool_size = len(view.received[view.to_move]) if in_flight else 0
        passed = () if seat is None or view.passed_on is None else view.passed_on[seat] or ()
        self.passed = [t for t in self.unseen if t in passed]
        self.passed_slots: list[int] = []
        if self.passed:
            order = _turn_order(view.first_player, players)
            drafted = {s for s in order[: order.index(seat)] if view.passed_on[s] is not None}
            first_hand = len(self.down_cells) + self.took_unknown
            self.passed_slots = [
                first_hand + HAND_SIZE * i + k
                for i, s in enumerate(self.others)
                if s in drafted
                for k in range(HAND_SIZE)
            ] + list(range(first_hand + HAND_SIZE * len(self.others), len(self.unseen)))

    def tiles(self, rng) -> list[int]:
        """The unseen tiles in slot order, dealt with ``rng`` (``random.Random`` or ``Rng``)."""
        if self.passed:
            slots = self.passed_slots[:]
            rng.shuffle(slots)
            order: list[int | None] = [None] * len(self.unseen)
            for tile, slot in zip(self.passed, slots, strict=False):
                order[slot] = tile
            rest = [t for t in self.unseen if t not in self.passed]
            rng.shuffle(rest)
            it = iter(rest)
            return [next(it) if t is None else t for t in order]
        # A sort on random keys is a uniform shuffle, and several times faster here.
        return sorted(self.unseen, key=lambda _: rng.random())

    def state(self, rng) -> State:
        """A full state behind the view, its hidden tiles dealt with ``rng``.

        Other seats' draft history, which nobody but they know, is filled with arbitrary
        tiles of the right count; the state has the same view, without always being a history
        the draft could have made.
        """
        view = self.view
        seat, players = view.seat, view.players
        tiles = self.tiles(rng)
        garden = list(view.garden)
        for cell, tile in zip(self.down_cells, tiles, strict=False):
            garden[cell] = tile + FACE_DOWN
        at = len(self.down_cells)
        pending, took = view.pending, None
        if self.took_unknown:
            took, at = tiles[at], at + 1
            pending = (pending[0], pending[1], took)
        hands: list = [view.hand] * players
        for s in self.others:
            extra = (took,) if took is not None and s == view.to_move else ()
            hands[s] = tuple(sorted((*tiles[at : at + HAND_SIZE], *extra)))
            at += HAND_SIZE
        pool = view.known_pool()
        if self.pool_size:
            pool, at = tuple(sorted(tiles[at : at + self.pool_size])), at + self.pool_size
        received = passed_on = None
        if view.received is not None:
            arbitrary = sorted(self.unseen)

            def history(entries, s):
                if s == seat or entries[s] is None:
                    return entries[s]
                if view.phase == "draft" and s == view.to_move and entries is view.received:
                    return pool
                return tuple(arbitrary[: len(entries[s])])

            received = tuple(history(view.received, s) for s in range(players))
            passed_on = tuple(history(view.passed_on, s) for s in range(players))
        return State(
            options=view.options,
            garden=tuple(garden),
            visitors=view.visitors,
            unplaced=view.unplaced,
            hands=tuple(hands),
            box=tuple(sorted(tiles[at:])),
            to_move=view.to_move,
            phase=view.phase,
            removed_type=view.removed_type,
            first_player=view.first_player,
            received=received,
            passed_on=passed_on,
            face_down=_face_down_mask(garden),
            pending=pending,
        )


def sample_state(view: View, rng: Rng) -> State:
    """A full state ``view`` could be the view of, its hidden tiles dealt at random by
    ``Dealer`` (for bots searching determinizations, and tests)."""
    return Dealer(view).state(rng)
