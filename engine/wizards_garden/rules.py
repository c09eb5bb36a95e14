"""Wizards' Garden's rules: the board as bits, moves and their codes, ``State``, ``View`` and
the deal (``new_game``). The package's docstring explains the codes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError, IllegalMove, NotationError, gettext_noop
from engine.rng import Rng

NAME = "wizards_garden"

#: Seeds in the game, all in the basket before setup.
SEEDS = 20
#: Seeds placed in setup (2 per player).
SETUP_SEEDS = 4
#: Seeds that go back to the basket for each harvested line (the fourth becomes a flower).
RETURNED_PER_LINE = 3
#: Why a game ends, in words (``State.end_reason``): the basket, the board empty, the board full.
END_REASONS = (
    gettext_noop("the basket is empty"),
    gettext_noop("the board is empty"),
    gettext_noop("the board is full"),
)

SETUP, PLAY, OVER = "setup", "play", "over"
WHITE, BLACK = "W", "B"
EMPTY = "."

FILES = "abcd"
#: Cell names by bit index.
CELLS = tuple(f"{FILES[i % 4]}{i // 4 + 1}" for i in range(16))
_CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
FULL_BOARD = (1 << 16) - 1
_NOT_FILE_A = FULL_BOARD & ~sum(1 << (4 * rank) for rank in range(4))
_NOT_FILE_D = FULL_BOARD & ~sum(1 << (4 * rank + 3) for rank in range(4))


def _mask(cells: Iterable[tuple[int, int]]) -> int:
    """The mask of (file, rank) pairs, both 0-based."""
    return sum(1 << (4 * rank + file) for file, rank in cells)


def _spread(mask: int) -> int:
    """Every cell orthogonally adjacent to a cell of ``mask``."""
    return (
        ((mask << 1) & _NOT_FILE_A)
        | ((mask >> 1) & _NOT_FILE_D)
        | ((mask << 4) & FULL_BOARD)
        | (mask >> 4)
    )


#: Orthogonal neighbours of each cell, by bit index.
NEIGHBOURS = tuple(_spread(1 << i) for i in range(16))

_LINES = (
    [(f"a{r + 1}-d{r + 1}", _mask((f, r) for f in range(4))) for r in range(4)]
    + [(f"{FILES[f]}1-{FILES[f]}4", _mask((f, r) for r in range(4))) for f in range(4)]
    + [("a1-d4", _mask((i, i) for i in range(4))), ("a4-d1", _mask((i, 3 - i) for i in range(4)))]
)
#: The 10 lines by their end cells: rows, then columns, then the two long diagonals.
LINE_NAMES = tuple(name for name, _ in _LINES)
LINE_MASKS = tuple(mask for _, mask in _LINES)
_LINE_INDEX = {name: k for k, name in enumerate(LINE_NAMES)}
_LINES_THROUGH = tuple(
    tuple(k for k, mask in enumerate(LINE_MASKS) if mask >> i & 1) for i in range(16)
)

_CELL_BITS, _BLACK_BIT, _NAMED_BIT, _LINES_SHIFT = 0xF, 1 << 4, 1 << 5, 6
_MOVE = re.compile(r"([a-d][1-4])([WB])(?:/(.*))?", re.DOTALL)


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _lines_text(lines: int) -> str:
    """A set of lines (bits over ``LINE_NAMES``) in notation: names sorted, comma-separated."""
    return ",".join(sorted(LINE_NAMES[k] for k in _bits(lines)))


def _full_lines(white: int, black: int) -> int:
    """The harvest conditions: lines (bits over ``LINE_NAMES``) of four seeds of one colour."""
    full = 0
    for k, mask in enumerate(LINE_MASKS):
        if white & mask == mask or black & mask == mask:
            full |= 1 << k
    return full


@functools.cache
def _harvest_choices(full: int) -> tuple[int, ...]:
    """The maximal sets of pairwise disjoint lines among ``full``, in notation order.

    With no harvest condition the one choice is the empty set.
    """
    lines = list(_bits(full))
    disjoint = []
    for pick in range(1 << len(lines)):
        chosen = [lines[j] for j in range(len(lines)) if pick >> j & 1]
        covered = 0
        for k in chosen:
            if covered & LINE_MASKS[k]:
                break
            covered |= LINE_MASKS[k]
        else:
            disjoint.append(sum(1 << k for k in chosen))
    maximal = [s for s in disjoint if not any(s != t and s & t == s for t in disjoint)]
    return tuple(sorted(maximal, key=_lines_text))


def move_name(code: int) -> str:
    """The notation of a move code: ``b2B``, or ``b2B/a1-d4`` when the harvest must be named."""
    text = CELLS[code & _CELL_BITS] + (BLACK if code & _BLACK_BIT else WHITE)
    if code & _NAMED_BIT:
        text += "/" + _lines_text(code >> _LINES_SHIFT)
    return text


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. ``setup_apart``: setup seeds may not be orthogonally adjacent."""

    setup_apart: bool = False

    @classmethod
    def from_json(cls, data: Any) -> Options:
        """Options from JSON; ``None`` or left-out options take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise NotationError(code="wg_options_not_object", value=data)
        unknown = sorted(set(data) - {"setup_apart"})
        if unknown:
            raise NotationError(code="wg_unknown_option", option=unknown[0])
        setup_apart = data.get("setup_apart", False)
        if not isinstance(setup_apart, bool):
            raise NotationError(code="wg_setup_apart_not_bool", value=setup_apart)
        return cls(setup_apart=setup_apart)

    def to_json(self) -> dict:
        """Every option, as JSON."""
        return {"setup_apart": self.setup_apart}


def _score(harvested: tuple[tuple[int, int], ...], staff: int | None) -> dict:
    """NOTATION.md's score JSON: flowers per seat (``total`` as Topiary names it) and winners.

    A draw (equal flowers, nobody holding the staff) lists both seats as winners.
    """
    scores = [
        {"seat": seat, "W": w, "B": b, "flowers": w + b, "staff": staff == seat, "total": w + b}
        for seat, (w, b) in enumerate(harvested)
    ]
    first, second = (entry["flowers"] for entry in scores)
    if first != second:
        winners = [0 if first > second else 1]
    elif staff is not None:
        winners = [staff]
    else:
        winners = [0, 1]
    return {"scores": scores, "winners": winners}


@dataclass(frozen=True, slots=True)
class State:
    """A full position. Immutable and hashable: ``apply`` returns a new state.

    ``white`` and ``black`` are the masks of seeds showing each side;
    ``harvested`` holds (white, black) flowers per seat; ``staff`` is the seat
    holding the Wizard's Staff or None. When the game is over, ``to_move`` is
    the seat that could not plant.
    """

    white: int
    black: int
    basket: int
    harvested: tuple[tuple[int, int], tuple[int, int]]
    staff: int | None
    to_move: int
    phase: str
    options: Options = Options()

    @property
    def players(self) -> int:
        """Number of seats: always 2."""
        return 2

    @property
    def is_over(self) -> bool:
        """True once the player to move cannot plant."""
        return self.phase == OVER

    @property
    def first_player(self) -> int:
        """The seat that placed (or places) the first setup seed.

        Setup alternates from an empty board, so the count of seeds tells it.
        After setup the position no longer does: then it is the seat to move,
        who moves first in a record starting from that position.
        """
        if self.phase == SETUP and self.occupied.bit_count() % 2:
            return 1 - self.to_move
        return self.to_move

    @property
    def occupied(self) -> int:
        """The mask of cells holding a seed."""
        return self.white | self.black

    def cell(self, name: str) -> str:
        """What a cell holds: ``W``, ``B`` or ``.``."""
        bit = 1 << _CELL_INDEX[name]
        return WHITE if self.white & bit else BLACK if self.black & bit else EMPTY

    def end_reason(self) -> str | None:
        """Why the player to move cannot plant (basket empty, board empty or full), else None."""
        if self.phase == SETUP:
            return None
        if self.basket == 0:
            return END_REASONS[0]
        if self.occupied == 0:
            return END_REASONS[1]
        if self.occupied == FULL_BOARD:
            return END_REASONS[2]
        return None

    def _setup_line(self, cell: int, black: bool) -> str | None:
        """The line a setup placement would complete as four seeds of one colour, if any."""
        own = (self.black if black else self.white) | 1 << cell
        for k in _LINES_THROUGH[cell]:
            if own & LINE_MASKS[k] == LINE_MASKS[k]:
                return LINE_NAMES[k]
        return None

    def _planted(self, cell: int, black: bool) -> tuple[int, int]:
        """The (white, black) masks after planting on ``cell`` and flipping its neighbours."""
        flips = NEIGHBOURS[cell] & self.occupied
        white, black_mask = self.white ^ flips, self.black ^ flips
        if black:
            return white, black_mask | 1 << cell
        return white | 1 << cell, black_mask

    def move_codes(self) -> tuple[int, ...]:
        """The legal moves as codes (see the module docstring); empty when the game is over."""
        if self.phase == OVER:
            return ()
        occupied = self.occupied
        codes = []
        if self.phase == SETUP:
            free = FULL_BOARD & ~occupied
            if self.options.setup_apart:
                free &= ~_spread(occupied)
            for cell in _bits(free):
                for black in (False, True):
                    if self._setup_line(cell, black) is None:
                        codes.append(cell | black * _BLACK_BIT)
            return tuple(codes)
        for cell in _bits(_spread(occupied) & ~occupied):
            for black in (False, True):
                choices = _harvest_choices(_full_lines(*self._planted(cell, black)))
                named = _NAMED_BIT if len(choices) > 1 else 0
                for lines in choices:
                    codes.append(cell | black * _BLACK_BIT | named | lines << _LINES_SHIFT)
        return tuple(codes)

    def legal_moves(self) -> list[str]:
        """The mover's legal moves in notation, sorted, each once."""
        return sorted(move_name(code) for code in self.move_codes())

    #: No turn here is split in steps (the API is shared with Topiary's pending take).
    pending_step = None

    def legal_steps(self) -> list[str]:
        """The mover's next decisions: every turn is one decision, so ``legal_moves()``."""
        return self.legal_moves()

    def apply_code(self, code: int) -> State:
        """The state after a move code from ``move_codes()``; the code is not checked."""
        cell = code & _CELL_BITS
        black = bool(code & _BLACK_BIT)
        mover = self.to_move
        if self.phase == SETUP:
            bit = 1 << cell
            white = self.white | (0 if black else bit)
            black_mask = self.black | (bit if black else 0)
            placed = (white | black_mask).bit_count()
            return State(
                white=white,
                black=black_mask,
                basket=self.basket - 1,
                harvested=self.harvested,
                staff=self.staff,
                to_move=1 - mover,
                phase=PLAY if placed == SETUP_SEEDS else SETUP,
                options=self.options,
            )
        white, black_mask = self._planted(cell, black)
        basket = self.basket - 1
        harvested = list(self.harvested)
        staff = self.staff
        removed = 0
        for k in _bits(code >> _LINES_SHIFT):
            line = LINE_MASKS[k]
            w, b = harvested[mover]
            if black_mask & line == line:
                harvested[mover] = (w, b + 1)
                staff = mover
            else:
                harvested[mover] = (w + 1, b)
            removed |= line
            basket += RETURNED_PER_LINE
        white &= ~removed
        black_mask &= ~removed
        occupied = white | black_mask
        over = basket == 0 or occupied == 0 or occupied == FULL_BOARD
        return State(
            white=white,
            black=black_mask,
            basket=basket,
            harvested=(harvested[0], harvested[1]),
            staff=staff,
            to_move=1 - mover,
            phase=OVER if over else PLAY,
            options=self.options,
        )

    def move_facts(self, move: str) -> dict | None:
        """What ``move`` does beyond planting, as every viewer may know it (nothing is hidden).

        ``{"setup": true}`` for a set-up seed (it flips nothing); for a harvest, its lines in
        notation order with the flower each gives (``{"line": "a1-d1", "flower": "B"}``) and
        ``staff``, whether the mover takes the Wizard's Staff by it; None for any other move.
        Computed once when the move is played (the site keeps it with the move).
        """
        code = self.code_of(move)
        if self.phase == SETUP:
            return {"setup": True}
        lines = code >> _LINES_SHIFT
        if not lines:
            return None
        black = self._planted(code & _CELL_BITS, bool(code & _BLACK_BIT))[1]
        harvest = sorted(
            (
                {
                    "line": LINE_NAMES[k],
                    "flower": BLACK if black & LINE_MASKS[k] == LINE_MASKS[k] else WHITE,
                }
                for k in _bits(lines)
            ),
            key=lambda entry: entry["line"],
        )
        took_staff = self.staff != self.to_move and any(e["flower"] == BLACK for e in harvest)
        return {"harvest": harvest, "staff": took_staff}

    def code_of(self, move: str, seat: int | None = None) -> int:
        """The code of a move in notation, checked against the rules.

        ``seat``, when given, must be the seat to move. Raises ``IllegalMove``
        saying why the move is not allowed (or not understood).
        """
        if not isinstance(move, str):
            raise IllegalMove(code="wg_move_not_text", move=move)
        if self.phase == OVER:
            raise IllegalMove(code="wg_game_over", end_reason=self.end_reason())
        if seat is not None and seat != self.to_move:
            raise IllegalMove(code="wg_not_your_turn", to_move=self.to_move)
        match = _MOVE.fullmatch(move)
        if match is None:
            raise IllegalMove(code="wg_move_malformed", move=move)
        cell_name, side, suffix = match.groups()
        cell, black, head = _CELL_INDEX[cell_name], side == BLACK, cell_name + side
        occupied = self.occupied
        if occupied >> cell & 1:
            raise IllegalMove(code="cell_occupied", cell=cell_name)
        if self.phase == SETUP:
            if suffix is not None:
                raise IllegalMove(code="setup_names_lines", move=move)
            if self.options.setup_apart and NEIGHBOURS[cell] & occupied:
                raise IllegalMove(code="setup_apart_adjacent", cell=cell_name)
            line = self._setup_line(cell, black)
            if line is not None:
                raise IllegalMove(code="setup_completes_line", move=head, line=line, side=side)
            return cell | black * _BLACK_BIT
        if not NEIGHBOURS[cell] & occupied:
            raise IllegalMove(code="not_next_to_seed", cell=cell_name)
        full = _full_lines(*self._planted(cell, black))
        choices = _harvest_choices(full)
        named = _NAMED_BIT if len(choices) > 1 else 0
        code = cell | black * _BLACK_BIT | named
        if suffix is None:
            if named:
                options = ", ".join(f"{head}/{_lines_text(c)}" for c in choices)
                raise IllegalMove(code="harvest_choice_needed", move=head, choices=options)
            return code | choices[0] << _LINES_SHIFT
        lines = _parse_lines(suffix, move)
        if not full:
            raise IllegalMove(code="harvests_nothing", move=head, lines=suffix)
        _check_harvest(head, full, lines)
        return code | lines << _LINES_SHIFT

    def apply(self, move: str, seat: int | None = None) -> State:
        """The state after ``move`` (notation); ``IllegalMove`` says why it is not allowed."""
        return self.apply_code(self.code_of(move, seat))

    def canonical(self, move: str) -> str:
        """The one notation of a legal move (a harvest named only where there is a choice)."""
        return move_name(self.code_of(move))

    def took(self, move: str) -> None:
        """Nothing is taken in Wizards' Garden: always None (the API is shared with Topiary)."""
        return None

    def score(self) -> dict:
        """NOTATION.md's score JSON as the position stands now."""
        return _score(self.harvested, self.staff)

    def to_json(self) -> dict:
        """The full position as NOTATION.md's JSON."""
        return {
            "game": NAME,
            "options": self.options.to_json(),
            "board": [[self.cell(f"{f}{rank}") for f in FILES] for rank in range(4, 0, -1)],
            "basket": self.basket,
            "harvested": [{WHITE: w, BLACK: b} for w, b in self.harvested],
            "staff": self.staff,
            "to_move": self.to_move,
            "phase": self.phase,
        }

    def view(self, seat: int) -> View:
        """What ``seat`` may know: everything, as nothing is hidden in this game."""
        if seat not in (0, 1):
            raise EngineError(code="wg_no_such_seat", seat=seat)
        return View(seat, self)

    def spectator_view(self) -> View:
        """What anyone may know."""
        return View(None, self)


def _parse_lines(suffix: str, move: str) -> int:
    """The lines named after '/' in a move, as bits over ``LINE_NAMES``."""
    lines = 0
    for name in suffix.split(","):
        k = _LINE_INDEX.get(name)
        if k is None:
            raise IllegalMove(
                code="unknown_line", move=move, line=name, lines=", ".join(LINE_NAMES)
            )
        if lines >> k & 1:
            raise IllegalMove(code="line_named_twice", move=move, line=name)
        lines |= 1 << k
    return lines


def _check_harvest(head: str, full: int, lines: int) -> None:
    """Refuse a named harvest that is not a maximal set of disjoint harvest conditions."""
    for k in _bits(lines):
        if not full >> k & 1:
            raise IllegalMove(code="line_not_harvest", line=LINE_NAMES[k], move=head)
    for k in _bits(lines):
        for j in _bits(lines & ~((2 << k) - 1)):
            shared = LINE_MASKS[k] & LINE_MASKS[j]
            if shared:
                raise IllegalMove(
                    code="harvest_lines_overlap",
                    line=LINE_NAMES[k],
                    other=LINE_NAMES[j],
                    cell=CELLS[next(_bits(shared))],
                )
    covered = sum(LINE_MASKS[k] for k in _bits(lines))
    for k in _bits(full & ~lines):
        if not LINE_MASKS[k] & covered:
            raise IllegalMove(code="harvest_incomplete", move=head, line=LINE_NAMES[k])


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, seat None) may know of a position.

    Nothing is hidden in Wizards' Garden, so the view shows the whole position,
    but it is still a smaller object than the state: it cannot play moves.
    """

    seat: int | None
    _state: State = field(repr=False)

    @property
    def players(self) -> int:
        """Number of seats: always 2."""
        return self._state.players

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self._state.to_move

    @property
    def phase(self) -> str:
        """``setup``, ``play`` or ``over``."""
        return self._state.phase

    @property
    def is_over(self) -> bool:
        """True once the player to move cannot plant."""
        return self._state.is_over

    def legal_moves(self) -> list[str]:
        """The viewer's legal moves when the viewer is to move, else ``[]``."""
        if self.seat is None or self.seat != self.to_move:
            return []
        return self._state.legal_moves()

    #: As on the state: no turn is split in steps.
    pending_step = None

    def legal_steps(self) -> list[str]:
        """As ``legal_moves()``: every turn is one decision."""
        return self.legal_moves()

    def to_json(self) -> dict:
        """The position as NOTATION.md's JSON (all of it: nothing is hidden)."""
        return self._state.to_json()

    def public_score(self) -> dict:
        """The score as anyone can know it: the full score."""
        return self._state.score()


def move_seen_by(move: str, *, mover: int, viewer: int | None, took: str | None, over: bool) -> str:
    """The form of a recorded move ``viewer`` may see: the move itself, nothing is hidden.

    Shared with Topiary, where other players see less of some moves than the mover."""
    return move


def state_from_view(view: View) -> State:
    """The full state behind a view; nothing is hidden, so bots may search from it."""
    return view._state


def new_game(
    options: Options | None = None, seed: int | str | bytes = 0, first_player: int | None = None
) -> State:
    """The start of a game: empty board, 20 seeds in the basket, setup phase.

    The first player is drawn from ``seed`` unless given.
    """
    if first_player is None:
        first_player = Rng(seed).randbelow(2)
    elif first_player not in (0, 1) or isinstance(first_player, bool):
        raise EngineError(code="wg_first_player", value=first_player)
    return State(0, 0, SEEDS, ((0, 0), (0, 0)), None, first_player, SETUP, options or Options())
