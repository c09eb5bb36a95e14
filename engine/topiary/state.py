"""A full Topiary position (``State``): its moves, scoring and views; the seeded deal
(``new_game``) and ``perft``."""

from __future__ import annotations

from typing import NamedTuple

from engine.errors import IllegalMove, NotationError
from engine.rng import Rng
from engine.topiary.board import (
    CELLS,
    CENTRE,
    FACE_DOWN,
    GAP,
    HAND_SIZE,
    JSON_ORDER,
    LINES,
    POSITIONS,
    TILE_NAMES,
    TYPES,
    UNKNOWN,
    Options,
    _mask_tiles,
    _require,
    _seat,
)
from engine.topiary.moves import (
    _PLANTS,
    NO_TAKE,
    PLANT_STEP,
    TAKE_STEP,
    _keep_codes,
    _parse_move,
    _plant_codes,
    _play_codes,
    _step_codes,
    _turn_names,
    decode_move,
    move_name,
)
from engine.topiary.scoring import _score_parts, _scoring_hand_tiles, _sight_lines, totals, winners
from engine.topiary.view import (
    View,
    _face_down_mask,
    _free_positions,
    _pending_json,
    _position_json,
    _Seated,
    _tiles_json,
)

_new_state = tuple.__new__


def _replaced(items: tuple, index: int, value) -> tuple:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def _next_turn(mover: int, unplaced: tuple[int, ...]) -> tuple[int, str]:
    """``(to_move, phase)`` once ``mover``'s turn is finished."""
    players = len(unplaced)
    for step in range(1, players + 1):
        seat = (mover + step) % players
        if unplaced[seat]:
            return seat, "play"
    return (mover + 1) % players, "over"


class _StateFields(NamedTuple):
    options: Options
    #: 25 cells by index: a tile face up, tile + FACE_DOWN face down.
    garden: tuple[int, ...]
    #: Per position index: the seat of the visitor there, or -1.
    visitors: tuple[int, ...]
    unplaced: tuple[int, ...]
    #: Per seat, the 3 tiles in hand, sorted.
    hands: tuple[tuple[int, ...], ...]
    box: tuple[int, ...]
    to_move: int
    phase: str
    removed_type: int | None
    first_player: int
    #: Draft only: per seat, the tiles passed to it / passed on by it (None: not yet).
    received: tuple[tuple[int, ...] | None, ...] | None
    passed_on: tuple[tuple[int, ...] | None, ...] | None
    #: Bitmask of the face-down cells (derived from ``garden``, for move generation).
    face_down: int
    #: A take waiting for its plant: (position, cell, taken tile), else None. The visitor is
    #: placed, the cell is ``GAP`` and the taken tile is the 4th in the mover's hand.
    pending: tuple[int, int, int] | None = None


class State(_Seated, _StateFields):
    """A full Topiary position: every identity known. Immutable; ``apply`` returns a new one.

    A named tuple of plain ints and tuples, so copying, hashing and comparing are cheap.
    """

    __slots__ = ()

    def __repr__(self):
        return f"<topiary.State {self.phase} to_move={self.to_move} {self.to_json()}>"

    # -- moves

    def move_codes(self) -> list[int]:
        """The mover's legal moves as codes (fast path; unsorted).

        With a take pending, the plant steps (the only way to finish the turn)."""
        if self.pending is not None:
            return _plant_codes(self.hands[self.to_move], self.pending[2])
        if self.phase == "play":
            return _play_codes(
                self.face_down,
                self.visitors,
                self.hands[self.to_move],
                self.options.positions,
                self.options.must_pick,
            )
        if self.phase == "draft":
            return _keep_codes(self._draft_pool())
        return []

    def legal_moves(self) -> list[str]:
        """The mover's legal moves in notation, sorted, each once (plant steps when pending)."""
        if self.phase == "play" and self.pending is None:
            return _turn_names(
                self.face_down,
                self.visitors,
                self.options.positions,
                self.options.must_pick,
                self.hands[self.to_move],
            )
        return sorted(map(move_name, self.move_codes()))

    def step_codes(self) -> list[int]:
        """The mover's next decisions as codes (unsorted); see ``legal_steps``."""
        if self.phase == "play" and self.pending is None:
            return _step_codes(
                self.face_down, self.visitors, self.options.positions, self.options.must_pick
            )
        return self.move_codes()

    def legal_steps(self) -> list[str]:
        """The mover's next decision as at the table, sorted, each once.

        In play: ``c5:S`` (place only, unless ``must_pick`` forbids it) and ``c5:S c4`` (place
        and take); with a take pending: ``=*`` and ``=`` each tile held before the take. In the
        draft, the keep moves.
        """
        if self.phase == "play" and self.pending is None:
            return _turn_names(
                self.face_down, self.visitors, self.options.positions, self.options.must_pick
            )
        return sorted(map(move_name, self.step_codes()))

    def _draft_pool(self) -> tuple[int, ...]:
        return tuple(sorted(self.hands[self.to_move] + self.received[self.to_move]))

    def code_of(self, move: str, seat: int | None = None) -> int:
        """The code of a legal move; IllegalMove saying why if it is not legal."""
        if self.phase == "over":
            raise IllegalMove(code="game_over", move=move)
        if seat is not None and seat != self.to_move:
            if not 0 <= seat < self.players:
                raise IllegalMove(code="move_no_such_seat", move=move, seat=seat)
            if self.phase == "play" and self.unplaced[seat] == 0:
                raise IllegalMove(code="seat_no_visitors_left", move=move, seat=seat)
            raise IllegalMove(code="not_your_turn", move=move, to_move=self.to_move)
        code = _parse_move(move)
        if self.pending is not None:
            return self._plant_code_of(move, code)
        if code >= PLANT_STEP:
            raise IllegalMove(code="nothing_to_plant", move=move)
        if self.phase == "draft":
            if code >= 0:
                raise IllegalMove(code="draft_expects_keep", move=move)
            pool = self._draft_pool()
            for tile in _mask_tiles(-code):
                if tile not in pool:
                    raise IllegalMove(code="keep_tile_not_held", move=move, tile=TILE_NAMES[tile])
            return code
        if code < 0:
            raise IllegalMove(code="draft_over", move=move)
        if code >= TAKE_STEP:
            (p, cell), plant = divmod(code - TAKE_STEP, 26), None
        else:
            p, cell, plant = decode_move(code)
        position = POSITIONS[p]
        if p not in self.options.positions:
            raise IllegalMove(code="position_not_in_play", move=move, position=position)
        if self.visitors[p] >= 0:
            raise IllegalMove(code="position_occupied", move=move, position=position)
        line = LINES[p]
        if cell is None:
            if self.options.must_pick and any(self.garden[c] >= FACE_DOWN for c in line):
                raise IllegalMove(code="must_take", move=move, position=position)
            return code
        if cell not in line:
            raise IllegalMove(
                code="cell_not_in_line", move=move, cell=CELLS[cell], position=position
            )
        if self.garden[cell] < FACE_DOWN:
            raise IllegalMove(code="cell_face_up", move=move, cell=CELLS[cell])
        # A tile named here must be in hand before the take, even if it is the one taken:
        # accepting it would let a player probe face-down identities through errors.
        if plant is not None and plant not in self.hands[self.to_move]:
            raise IllegalMove(code="plant_tile_not_in_hand", move=move, tile=TILE_NAMES[plant])
        return code

    def _plant_code_of(self, move: str, code: int) -> int:
        p, cell, _ = self.pending
        if code < PLANT_STEP:
            raise IllegalMove(
                code="plant_first", move=move, cell=CELLS[cell], position=POSITIONS[p]
            )
        planted = code - PLANT_STEP - 1
        if planted >= 0 and planted not in self.hands[self.to_move]:
            raise IllegalMove(code="tile_not_in_hand", move=move, tile=TILE_NAMES[planted])
        return code

    def apply(self, move: str, seat: int | None = None) -> State:
        """The state after ``move``; IllegalMove with the reason if the rules forbid it.

        ``seat``, if given, is who is moving: a move by anyone but the mover is refused.
        ``move`` is a whole move or a step: a take step ``c5:S c4`` gives a pending state
        (same mover), whose only moves are the plant steps ``=*`` / ``=R3``.
        """
        return self.apply_code(self.code_of(move, seat))

    def took(self, move: str) -> str | None:
        """The tile a legal move or take step takes (for the record), or None."""
        code = self.code_of(move)
        if code < 0 or code >= PLANT_STEP:
            return None
        cell = (code - TAKE_STEP) % 26 if code >= TAKE_STEP else decode_move(code)[1]
        return None if cell is None else TILE_NAMES[self.garden[cell] - FACE_DOWN]

    def apply_code(self, code: int) -> State:
        """The state after a legal move code (fast path: no checks)."""
        if code < 0:
            return self._apply_keep(code)
        if code >= TAKE_STEP:
            return self._apply_step(code)
        rest, plant = divmod(code, _PLANTS)
        p, cell = divmod(rest, 26)
        (options, garden, visitors, unplaced, hands, box, mover, _, removed, first, received,
         passed_on, face_down, _) = self  # fmt: skip
        if cell != NO_TAKE:
            taken = garden[cell] - FACE_DOWN
            face_down &= ~(1 << cell)
            if plant == 0:
                garden = (*garden[:cell], taken, *garden[cell + 1 :])
            else:
                planted = plant - 1
                garden = (*garden[:cell], planted, *garden[cell + 1 :])
                hand = tuple(sorted([t for t in hands[mover] if t != planted] + [taken]))
                hands = (*hands[:mover], hand, *hands[mover + 1 :])
        visitors = (*visitors[:p], mover, *visitors[p + 1 :])
        unplaced = (*unplaced[:mover], unplaced[mover] - 1, *unplaced[mover + 1 :])
        players = len(unplaced)
        phase = "over"
        to_move = (mover + 1) % players
        for step in range(1, players + 1):
            seat = (mover + step) % players
            if unplaced[seat]:
                to_move = seat
                phase = "play"
                break
        return _new_state(
            State,
            (options, garden, visitors, unplaced, hands, box, to_move, phase, removed, first,
             received, passed_on, face_down, None),
        )  # fmt: skip

    def _apply_step(self, code: int) -> State:
        mover, hands = self.to_move, self.hands
        if code >= PLANT_STEP:
            _, cell, took = self.pending
            planted = took if code == PLANT_STEP else code - PLANT_STEP - 1
            to_move, phase = _next_turn(mover, self.unplaced)
            return self._replace(
                garden=_replaced(self.garden, cell, planted),
                hands=_replaced(hands, mover, tuple(t for t in hands[mover] if t != planted)),
                to_move=to_move,
                phase=phase,
                pending=None,
            )
        p, cell = divmod(code - TAKE_STEP, 26)
        took = self.garden[cell] - FACE_DOWN
        return self._replace(
            garden=_replaced(self.garden, cell, GAP),
            visitors=_replaced(self.visitors, p, mover),
            unplaced=_replaced(self.unplaced, mover, self.unplaced[mover] - 1),
            hands=_replaced(hands, mover, tuple(sorted((*hands[mover], took)))),
            face_down=self.face_down & ~(1 << cell),
            pending=(p, cell, took),
        )

    def _apply_keep(self, code: int) -> State:
        mover = self.to_move
        kept = _mask_tiles(-code)
        passed = tuple(t for t in self._draft_pool() if t not in kept)
        hands = _replaced(self.hands, mover, kept)
        passed_on = _replaced(self.passed_on, mover, passed)
        if mover == self.first_player:
            return self._replace(
                hands=hands,
                passed_on=passed_on,
                box=tuple(sorted(self.box + passed)),
                to_move=self.first_player,
                phase="play",
            )
        receiver = (mover - 1) % self.players
        received = _replaced(self.received, receiver, passed)
        return self._replace(hands=hands, passed_on=passed_on, received=received, to_move=receiver)

    def children(self) -> list[State]:
        """The states after each legal move, in ``move_codes()`` order (plants when pending)."""
        apply_code = self.apply_code
        return [apply_code(code) for code in self.move_codes()]

    # -- scoring

    def score(self) -> dict:
        """NOTATION.md's score JSON for the position as it stands."""
        seen, bonus, hand = _score_parts(self.garden, self.visitors, self.hands, self.players)
        totals = [seen[s] + bonus[s] + hand[s] for s in range(self.players)]
        return {
            "scores": [
                {
                    "seat": s,
                    "visitors": seen[s],
                    "bonus": bonus[s],
                    "hand": hand[s],
                    "total": totals[s],
                }
                for s in range(self.players)
            ],
            "winners": winners(totals, hand, self.first_player, self.options.tiebreak),
        }

    def sight_lines(self, free: bool = False) -> list[dict]:
        """Each placed visitor: ``position``, ``seat``, ``line``, ``seen`` and ``points``.

        With ``free``, then each free position in play (``seat`` None): what a visitor
        placed there would see now."""
        return _sight_lines(self.garden, self.visitors, _free_positions(self, free))

    def scoring_hand_tiles(self) -> list[list[str]]:
        """Per seat, the tiles in hand that score now (a larger tile of their type is seen)."""
        return _scoring_hand_tiles(self.garden, self.visitors, self.hands)

    def totals(self) -> tuple[int, ...]:
        """Each seat's total score as the position stands (fast path for search)."""
        return tuple(totals(self.garden, self.visitors, self.hands, self.players)[0])

    # -- notation

    def to_json(self) -> dict:
        """The full position, NOTATION.md's JSON (plus ``first_player`` and ``box``)."""
        data = _position_json(
            self.options,
            self.removed_type,
            self.garden,
            self.visitors,
            self.unplaced,
            [[TILE_NAMES[t] for t in hand] for hand in self.hands],
            self.to_move,
            self.phase,
            self.first_player,
        )
        if self.received is not None:
            data["draft"] = {
                "received": [_tiles_json(x) for x in self.received],
                "passed_on": [_tiles_json(x) for x in self.passed_on],
            }
        if self.pending is not None:
            data["pending"] = _pending_json(self.pending)
        data["box"] = [TILE_NAMES[t] for t in self.box]
        return data

    # -- views

    def view(self, seat: int) -> View:
        """What ``seat`` may know."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalMove(code="no_such_seat", seat=seat)
        return self._view(seat)

    def spectator_view(self) -> View:
        """What anyone may know."""
        return self._view(None)

    def _view(self, seat: int | None) -> View:
        garden = tuple(UNKNOWN if FACE_DOWN <= x < GAP else x for x in self.garden)
        pending = self.pending
        if pending is not None and seat != self.to_move:
            pending = (pending[0], pending[1], UNKNOWN)
        received = passed_on = None
        if self.received is not None:
            received = tuple(
                x if s == seat or x is None else (UNKNOWN,) * len(x)
                for s, x in enumerate(self.received)
            )
            passed_on = tuple(
                x if s == seat or x is None else (UNKNOWN,) * len(x)
                for s, x in enumerate(self.passed_on)
            )
        return View(
            seat=seat,
            options=self.options,
            garden=garden,
            visitors=self.visitors,
            unplaced=self.unplaced,
            hand=None if seat is None else self.hands[seat],
            to_move=self.to_move,
            phase=self.phase,
            removed_type=self.removed_type,
            first_player=self.first_player,
            received=received,
            passed_on=passed_on,
            pending=pending,
        )


def new_game(
    options: Options,
    seed: int | str | bytes,
    *,
    removed_type: str | None = None,
    first_player: int | None = None,
) -> State:
    """The seeded deal of the module docstring."""
    if not isinstance(options, Options):
        raise NotationError(code="options_not_options", value=options)
    players = options.players
    rng = Rng(seed)
    drawn_type = rng.randbelow(8)
    drawn_first = rng.randbelow(players)
    if players == 4:
        if removed_type is not None:
            raise NotationError(code="removed_type_with_four")
        removed = None
    elif removed_type is None:
        removed = drawn_type
    else:
        _require(
            isinstance(removed_type, str) and len(removed_type) == 1 and removed_type in TYPES,
            "removed_type_not_type",
            value=removed_type,
            types=TYPES,
        )
        removed = TYPES.index(removed_type)
    first = drawn_first if first_player is None else _seat(first_player, "first_player", players)
    tiles = list(options.game_tiles(removed))
    rng.shuffle(tiles)
    garden = [0] * 25
    for i, cell in enumerate(JSON_ORDER):
        garden[cell] = tiles[i] + FACE_DOWN
    garden[CENTRE] -= FACE_DOWN
    hands = tuple(
        tuple(sorted(tiles[25 + HAND_SIZE * s : 25 + HAND_SIZE * (s + 1)])) for s in range(players)
    )
    box = tuple(sorted(tiles[25 + HAND_SIZE * players :]))
    received = passed_on = None
    phase, to_move = "play", first
    if options.draft:
        last = (first - 1) % players
        received = tuple(box if s == last else None for s in range(players))
        passed_on = (None,) * players
        box = ()
        phase, to_move = "draft", last
    return State(
        options=options,
        garden=tuple(garden),
        visitors=(-1,) * len(POSITIONS),
        unplaced=(options.visitors_each,) * players,
        hands=hands,
        box=box,
        to_move=to_move,
        phase=phase,
        removed_type=removed,
        first_player=first,
        received=received,
        passed_on=passed_on,
        face_down=_face_down_mask(garden),
    )


def perft(state: State, depth: int) -> int:
    """Leaf count of the full move tree to ``depth`` (bulk-counted at depth 1, as chess does)."""
    if depth <= 0:
        return 1
    codes = state.move_codes()
    if depth == 1:
        return len(codes)
    apply_code = state.apply_code
    return sum(perft(apply_code(code), depth - 1) for code in codes)
