"""What one seat of a Topiary game may know (``View``), and the position JSON both a view
and a state write."""

from __future__ import annotations

from engine.topiary.board import (
    CELLS,
    FACE_DOWN,
    GAP,
    HAND_SIZE,
    JSON_ORDER,
    NAME,
    POSITIONS,
    TILE_NAMES,
    TYPES,
    UNKNOWN,
    Options,
    _cell_text,
)
from engine.topiary.moves import (
    _keep_codes,
    _plant_codes,
    _play_codes,
    _step_codes,
    _turn_names,
    move_name,
)
from engine.topiary.scoring import _score_parts, _sight_lines


class _Seated:
    __slots__ = ()

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.options.players

    @property
    def is_over(self) -> bool:
        """True once the last visitor is placed."""
        return self.phase == "over"

    @property
    def pending_step(self) -> str | None:
        """The take step waiting for its plant (``"c5:S c4"``), else None."""
        if self.pending is None:
            return None
        p, cell, _ = self.pending
        return f"{POSITIONS[p]} {CELLS[cell]}"


class _Frozen(_Seated):
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


_set = object.__setattr__


def _free_positions(position, free: bool) -> tuple[int, ...]:
    """The unoccupied positions in play of a state or view when ``free``, else none."""
    if not free:
        return ()
    return tuple(p for p in position.options.positions if position.visitors[p] < 0)


def _face_down_mask(garden: tuple[int, ...]) -> int:
    return sum(1 << cell for cell in range(25) if FACE_DOWN <= garden[cell] < GAP)


class View(_Frozen):
    """What one seat (or a spectator, ``seat=None``) may know of a position.

    Face-down tiles are ``UNKNOWN`` in ``garden``; ``hand`` is the viewer's own hand (None for
    a spectator); in a draft, ``received``/``passed_on`` hold only the viewer's own tiles.
    ``pending`` is the state's (position, cell, taken tile) with the tile ``UNKNOWN`` for all
    but the taker.
    """

    __slots__ = (
        "first_player",
        "garden",
        "hand",
        "options",
        "passed_on",
        "pending",
        "phase",
        "received",
        "removed_type",
        "seat",
        "to_move",
        "unplaced",
        "visitors",
    )

    seat: int | None
    options: Options
    garden: tuple[int, ...]
    visitors: tuple[int, ...]
    unplaced: tuple[int, ...]
    hand: tuple[int, ...] | None
    to_move: int
    phase: str
    removed_type: int | None
    first_player: int
    received: tuple | None
    passed_on: tuple | None
    pending: tuple[int, int, int] | None

    def __init__(self, **values):
        for name in View.__slots__:
            _set(self, name, values[name])

    def _key(self):
        return tuple(getattr(self, name) for name in View.__slots__)

    def __reduce__(self):
        # Immutable slots defeat pickle's default; a bot thinking in another process
        # receives the view, never the state behind it.
        return (_view_from_key, (self._key(),))

    def __repr__(self):
        return f"<topiary.View seat={self.seat} {self.to_json()}>"

    def _turn_to_choose(self) -> bool:
        """The viewer is to move in play with no take pending: a whole turn to choose."""
        return (
            self.seat is not None
            and self.seat == self.to_move
            and self.phase == "play"
            and self.pending is None
        )

    def _turn_lines(self) -> tuple:
        """(face-down cells, visitors, positions in play, must_pick): what a play turn's
        choices are made from."""
        return (
            _face_down_mask(self.garden),
            self.visitors,
            self.options.positions,
            self.options.must_pick,
        )

    def move_codes(self) -> list[int]:
        """The viewer's legal move codes when the viewer is to move, else [].

        With a take pending, the plant steps."""
        if self.seat is None or self.seat != self.to_move:
            return []
        if self.pending is not None:
            return _plant_codes(self.hand, self.pending[2])
        if self.phase == "play":
            return _play_codes(
                _face_down_mask(self.garden),
                self.visitors,
                self.hand,
                self.options.positions,
                self.options.must_pick,
            )
        if self.phase == "draft":
            return _keep_codes(tuple(sorted(self.hand + self.received[self.seat])))
        return []

    def legal_moves(self) -> list[str]:
        """The viewer's legal moves in notation when the viewer is to move, else []."""
        if self._turn_to_choose():
            return _turn_names(*self._turn_lines(), self.hand)
        return sorted(map(move_name, self.move_codes()))

    def step_codes(self) -> list[int]:
        """The viewer's next decisions as codes when to move (unsorted), else []."""
        if self._turn_to_choose():
            return _step_codes(*self._turn_lines())
        return self.move_codes()

    def legal_steps(self) -> list[str]:
        """As ``State.legal_steps``, for the viewer when to move, else []."""
        if self._turn_to_choose():
            return _turn_names(*self._turn_lines())
        return sorted(map(move_name, self.step_codes()))

    def sight_lines(self, free: bool = False) -> list[dict]:
        """As ``State.sight_lines``: what each visitor sees is public (face-up tiles only)."""
        return _sight_lines(self.garden, self.visitors, _free_positions(self, free))

    def public_score(self) -> dict:
        """The score as the viewer can know it now.

        Every seat's ``visitors`` and ``bonus``; ``hand`` only for the viewer's own seat
        (None elsewhere), and ``total`` is what is known: visitors + bonus (+ hand if known).
        No winners: they depend on hands the viewer cannot see.
        """
        hands = [self.hand if s == self.seat else None for s in range(self.players)]
        seen, bonus, hand = _score_parts(self.garden, self.visitors, hands, self.players)
        return {
            "scores": [
                {
                    "seat": s,
                    "visitors": seen[s],
                    "bonus": bonus[s],
                    "hand": hand[s],
                    "total": seen[s] + bonus[s] + (hand[s] or 0),
                }
                for s in range(self.players)
            ]
        }

    def known_pool(self) -> tuple[int, ...] | None:
        """In a draft, the tiles passed to the mover if the viewer knows them, else None.

        The viewer knows them when it is the mover, or when it passed them itself.
        """
        if self.phase != "draft" or self.seat is None:
            return None
        if self.to_move == self.seat:
            return self.received[self.seat]
        if self.passed_on[self.seat] is not None and (self.seat - 1) % self.players == self.to_move:
            return self.passed_on[self.seat]
        return None

    def unseen_tiles(self) -> tuple[int, ...]:
        """Tiles whose place the viewer does not know (face down, other hands, box, in flight)."""
        known = {x for x in self.garden if x < FACE_DOWN}
        known.update(self.hand or ())
        known.update(self.known_pool() or ())
        return tuple(t for t in self.options.game_tiles(self.removed_type) if t not in known)

    def to_json(self) -> dict:
        """NOTATION.md's position JSON with ``?`` for what the viewer may not know."""
        hands = [
            [TILE_NAMES[t] for t in self.hand] if s == self.seat else ["?"] * self._hand_size(s)
            for s in range(self.players)
        ]
        data = _position_json(
            self.options,
            self.removed_type,
            self.garden,
            self.visitors,
            self.unplaced,
            hands,
            self.to_move,
            self.phase,
            self.first_player,
        )
        data["seat"] = self.seat
        if self.received is not None:
            data["draft"] = {
                "received": [_tiles_json(x) for x in self.received],
                "passed_on": [_tiles_json(x) for x in self.passed_on],
            }
        if self.pending is not None:
            data["pending"] = _pending_json(self.pending)
        return data

    def _hand_size(self, seat: int) -> int:
        """Tiles in ``seat``'s hand: 4 for a taker whose plant is pending, else 3."""
        return HAND_SIZE + (self.pending is not None and seat == self.to_move)


def _pending_json(pending: tuple[int, int, int]) -> dict:
    p, cell, took = pending
    return {
        "position": POSITIONS[p],
        "cell": CELLS[cell],
        "took": "?" if took >= UNKNOWN else TILE_NAMES[took],
    }


def _view_from_key(key: tuple) -> View:
    return View(**dict(zip(View.__slots__, key, strict=True)))


def _tiles_json(tiles: tuple[int, ...] | None) -> list[str] | None:
    if tiles is None:
        return None
    return ["?" if t >= UNKNOWN else TILE_NAMES[t] for t in tiles]


def _position_json(
    options, removed_type, garden, visitors, unplaced, hands, to_move, phase, first_player
) -> dict:
    return {
        "game": NAME,
        "options": options.to_json(),
        "removed_type": None if removed_type is None else TYPES[removed_type],
        "garden": [
            [_cell_text(garden[JSON_ORDER[row * 5 + col]]) for col in range(5)] for row in range(5)
        ],
        "visitors": {POSITIONS[p]: seat for p, seat in enumerate(visitors) if seat >= 0},
        "unplaced": list(unplaced),
        "hands": hands,
        "to_move": to_move,
        "phase": phase,
        "first_player": first_player,
    }
