# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Wizards' Garden's search compiled: move generation, moves and the alpha-beta of the strong
bot and the analysis, on a position in a C struct.

Built by ``make venv`` (Cython, as ``engine.topiary._compiled``; docs/decisions/
0022-compiled-garden-search.md). The reference is ``engine.wizards_garden.bots.Search`` on
``rules.State``: the same moves in the same order, the same values and the same node count,
so a search with a node cap ends in the very same place; only its speed differs.
"""

from libc.math cimport INFINITY
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

import engine.wizards_garden.rules as _rules

DEF LINES = 10
DEF MAX_CHOICES = 16
DEF MAX_CODES = 512
DEF CELL_BITS = 0xF
DEF BLACK_BIT = 16
DEF NAMED_BIT = 32
DEF LINES_SHIFT = 6
DEF RETURNED_PER_LINE = 3
DEF WIN = 1000.0
DEF SETUP = 0
DEF PLAY = 1
DEF OVER = 2

cdef int FULL = _rules.FULL_BOARD
cdef int SETUP_SEEDS = _rules.SETUP_SEEDS
cdef int NOT_FILE_A = FULL & ~sum(1 << (4 * rank) for rank in range(4))
cdef int NOT_FILE_D = FULL & ~sum(1 << (4 * rank + 3) for rank in range(4))
cdef int neighbours[16]
cdef int line_masks[LINES]
cdef int lines_through[16][4]
cdef int lines_through_count[16]
cdef int choices[1 << LINES][MAX_CHOICES]
cdef int choice_count[1 << LINES]

for _i in range(16):
    neighbours[_i] = _rules.NEIGHBOURS[_i]
    lines_through_count[_i] = len(_rules._LINES_THROUGH[_i])
    for _j, _k in enumerate(_rules._LINES_THROUGH[_i]):
        lines_through[_i][_j] = _k
for _k in range(LINES):
    line_masks[_k] = _rules.LINE_MASKS[_k]
for _full in range(1 << LINES):
    _found = _rules._harvest_choices(_full)
    if len(_found) > MAX_CHOICES:
        raise ImportError("more harvest choices than the compiled search holds")
    choice_count[_full] = len(_found)
    for _j, _lines in enumerate(_found):
        choices[_full][_j] = _lines

_PHASES = {_rules.SETUP: SETUP, _rules.PLAY: PLAY, _rules.OVER: OVER}


cdef struct Pos:
    int white
    int black
    int basket
    int harvested[2][2]
    int staff
    int to_move
    int phase
    int setup_apart


cdef inline int spread(int mask) noexcept:
    return ((mask << 1) & NOT_FILE_A) | ((mask >> 1) & NOT_FILE_D) | ((mask << 4) & FULL) | (mask >> 4)


cdef inline int lowest(int mask) noexcept:
    cdef int i = 0
    while not (mask >> i) & 1:
        i += 1
    return i


cdef inline int full_lines(int white, int black) noexcept:
    cdef int full = 0, k, mask
    for k in range(LINES):
        mask = line_masks[k]
        if (white & mask) == mask or (black & mask) == mask:
            full |= 1 << k
    return full


cdef int generate(Pos *p, int *codes) noexcept:
    """The legal move codes of ``p`` in ``State.move_codes``' order; their count."""
    cdef int n = 0, occupied = p.white | p.black, free, cell, black, own, k, j, ok, count
    cdef int flips, white_after, black_after, full, named
    if p.phase == OVER:
        return 0
    if p.phase == SETUP:
        free = FULL & ~occupied
        if p.setup_apart:
            free &= ~spread(occupied)
        while free:
            cell = lowest(free)
            free &= free - 1
            for black in range(2):
                own = (p.black if black else p.white) | (1 << cell)
                ok = 1
                for j in range(lines_through_count[cell]):
                    k = lines_through[cell][j]
                    if (own & line_masks[k]) == line_masks[k]:
                        ok = 0
                        break
                if ok:
                    codes[n] = cell | black * BLACK_BIT
                    n += 1
        return n
    free = spread(occupied) & ~occupied
    while free:
        cell = lowest(free)
        free &= free - 1
        flips = neighbours[cell] & occupied
        for black in range(2):
            white_after = p.white ^ flips
            black_after = p.black ^ flips
            if black:
                black_after |= 1 << cell
            else:
                white_after |= 1 << cell
            full = full_lines(white_after, black_after)
            count = choice_count[full]
            named = NAMED_BIT if count > 1 else 0
            for j in range(count):
                codes[n] = cell | black * BLACK_BIT | named | (choices[full][j] << LINES_SHIFT)
                n += 1
    return n


cdef void apply_code(Pos *p, int code, Pos *out) noexcept:
    """``State.apply_code`` into ``out``."""
    cdef int cell = code & CELL_BITS, black = 1 if code & BLACK_BIT else 0
    cdef int mover = p.to_move, bit = 1 << cell, flips, lines, k, line, removed = 0, occupied
    out[0] = p[0]
    out.to_move = 1 - mover
    out.basket = p.basket - 1
    if p.phase == SETUP:
        if black:
            out.black = p.black | bit
        else:
            out.white = p.white | bit
        occupied = out.white | out.black
        out.phase = PLAY if bit_count(occupied) == SETUP_SEEDS else SETUP
        return
    flips = neighbours[cell] & (p.white | p.black)
    out.white = p.white ^ flips
    out.black = p.black ^ flips
    if black:
        out.black |= bit
    else:
        out.white |= bit
    lines = code >> LINES_SHIFT
    for k in range(LINES):
        if (lines >> k) & 1:
            line = line_masks[k]
            if (out.black & line) == line:
                out.harvested[mover][1] += 1
                out.staff = mover
            else:
                out.harvested[mover][0] += 1
            removed |= line
            out.basket += RETURNED_PER_LINE
    out.white &= ~removed
    out.black &= ~removed
    occupied = out.white | out.black
    out.phase = OVER if out.basket == 0 or occupied == 0 or occupied == FULL else PLAY


cdef inline int bit_count(int mask) noexcept:
    cdef int n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


cdef double value(Pos *p, int seat) noexcept:
    """``bots._value``: a finished game +-WIN (0 drawn), else the flower lead and the staff."""
    cdef int mine = p.harvested[seat][0] + p.harvested[seat][1]
    cdef int theirs = p.harvested[1 - seat][0] + p.harvested[1 - seat][1]
    if p.phase == OVER:
        if mine != theirs:
            return WIN if mine > theirs else -WIN
        if p.staff >= 0:
            return WIN if p.staff == seat else -WIN
        return 0.0
    return (mine - theirs) + (0.0 if p.staff < 0 else (0.5 if p.staff == seat else -0.5))


cdef Pos position(state):
    """A ``rules.State`` as a ``Pos``."""
    cdef Pos p
    p.white = state.white
    p.black = state.black
    p.basket = state.basket
    for seat in range(2):
        p.harvested[seat][0] = state.harvested[seat][0]
        p.harvested[seat][1] = state.harvested[seat][1]
    p.staff = -1 if state.staff is None else state.staff
    p.to_move = state.to_move
    p.phase = _PHASES[state.phase]
    p.setup_apart = state.options.setup_apart
    return p


def move_codes(state) -> tuple:
    """``state.move_codes()``, generated here (for the equality tests)."""
    cdef Pos p = position(state)
    cdef int codes[MAX_CODES]
    cdef int n = generate(&p, codes)
    return tuple(codes[i] for i in range(n))


def after(state, int code) -> tuple:
    """``state.apply_code(code)`` here, as (white, black, basket, harvested, staff, to_move,
    phase) like ``State``'s fields (for the equality tests)."""
    cdef Pos p = position(state), out
    apply_code(&p, code, &out)
    phase = {SETUP: _rules.SETUP, PLAY: _rules.PLAY, OVER: _rules.OVER}[out.phase]
    harvested = (
        (out.harvested[0][0], out.harvested[0][1]),
        (out.harvested[1][0], out.harvested[1][1]),
    )
    staff = None if out.staff < 0 else out.staff
    return (out.white, out.black, out.basket, harvested, staff, out.to_move, phase)


cdef inline double seconds() noexcept:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + now.tv_nsec * 1e-9


cdef class Search:
    """``bots.Search`` compiled: negamax with alpha-beta over move codes, harvests first.

    ``out_of_time`` is the exception raised once the clock (``time.perf_counter``'s) or the
    node cap runs out, the reference's.
    """

    cdef public long nodes
    cdef public bint cut_off
    cdef double deadline
    cdef bint capped
    cdef long node_cap
    cdef object out_of_time

    def __init__(self, double deadline, node_cap, out_of_time):
        self.deadline = deadline
        self.capped = node_cap is not None
        self.node_cap = node_cap if node_cap is not None else 0
        self.nodes = 0
        self.cut_off = False
        self.out_of_time = out_of_time

    def negamax(self, state, int depth, double alpha, double beta) -> float:
        """The value of ``state`` for its mover, searched ``depth`` plies."""
        cdef Pos p = position(state)
        return self.search(&p, depth, alpha, beta)

    def child_value(self, state, int code, int depth, double alpha, double beta) -> float:
        """The value for the mover of ``state`` of playing ``code``."""
        cdef Pos p = position(state)
        return self.child(&p, code, depth, alpha, beta)

    cdef int tick(self) except -1:
        self.nodes += 1
        if self.capped:
            if self.nodes > self.node_cap:
                raise self.out_of_time
        elif self.nodes % 32 == 0 and seconds() >= self.deadline:
            raise self.out_of_time
        return 0

    cdef double search(self, Pos *p, int depth, double alpha, double beta) except? -1e300:
        cdef int codes[MAX_CODES]
        cdef int n, i, j, moving
        cdef double best, found
        self.tick()
        if p.phase == OVER:
            return value(p, p.to_move)
        if depth == 0:
            self.cut_off = True
            return value(p, p.to_move)
        n = generate(p, codes)
        # Harvesting moves first (the reference's stable sort on -(code >> LINES_SHIFT)).
        for i in range(1, n):
            moving = codes[i]
            j = i - 1
            while j >= 0 and (codes[j] >> LINES_SHIFT) < (moving >> LINES_SHIFT):
                codes[j + 1] = codes[j]
                j -= 1
            codes[j + 1] = moving
        best = -INFINITY
        for i in range(n):
            found = self.child(p, codes[i], depth, alpha, beta)
            if found > best:
                best = found
            if found > alpha:
                alpha = found
            if alpha >= beta:
                break
        return best

    cdef double child(self, Pos *p, int code, int depth, double alpha, double beta) except? -1e300:
        cdef Pos next_pos
        apply_code(p, code, &next_pos)
        if next_pos.to_move == p.to_move and next_pos.phase != OVER:
            return self.search(&next_pos, depth - 1, alpha, beta)
        if next_pos.phase == OVER:
            return value(&next_pos, p.to_move)
        return -self.search(&next_pos, depth - 1, -beta, -alpha)
