# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The strong bot's hot loops compiled: determinizations, random playouts, sight-line scoring,
and the search's bandits (``engine.search.bandit`` and ``bots._PlantBandit``).

Built by ``make venv`` (Cython, docs/decisions/0018-compiled-playouts.md). The reference is
``engine.topiary.fastplay``: a ``Table`` here holds the same position in C arrays, and
``Stream`` is CPython's ``random.Random`` (MT19937, ``random()`` as CPython computes it)
started from a ``random.Random``'s state, so a deal and a playout draw the very numbers the
reference draws and end in the very same garden, hands and scores.
"""

from libc.math cimport exp, log, sqrt
from libc.stdint cimport uint32_t
from libc.stdlib cimport free, malloc

DEF N = 624
DEF M = 397
DEF LINE_COUNT = 56
DEF FACE_DOWN = 40
DEF MAX_SEATS = 4
DEF NO_TAKE = 25
DEF PLANTS = 41
DEF MAX_UNSEEN = 40
DEF MAX_ARMS = 56
DEF NO_MOVE = -1000000

import time as _time

from engine.topiary.board import LINES as _LINES
from engine.topiary.scoring import BEATS as _BEATS

cdef int line_cells[LINE_COUNT][5]
cdef int line_length[LINE_COUNT]
cdef unsigned long long beats[40]

for _p, _line in enumerate(_LINES):
    line_length[_p] = len(_line)
    for _i, _cell in enumerate(_line):
        line_cells[_p][_i] = _cell
for _t, _mask in enumerate(_BEATS):
    beats[_t] = _mask


cdef class Stream:
    """CPython's Mersenne Twister, started where a ``random.Random`` stands.

    ``random()`` gives the numbers that ``random.Random.random`` would have given next, in
    order; the ``random.Random`` itself is not advanced (``store`` writes the state back).
    """

    cdef uint32_t mt[N]
    cdef int index

    def __init__(self, rand):
        version, words, _gauss = rand.getstate()
        if version != 3 or len(words) != N + 1:
            raise ValueError("not a Mersenne Twister state of CPython's random.Random")
        for i in range(N):
            self.mt[i] = words[i]
        self.index = words[N]

    cpdef Stream copy(self):
        """An independent stream at this one's position (the same numbers follow)."""
        cdef Stream other = Stream.__new__(Stream)
        other.mt = self.mt
        other.index = self.index
        return other

    def store(self, rand) -> None:
        """Put this stream's position into ``rand``, so it goes on from here."""
        _version, _words, gauss = rand.getstate()
        rand.setstate((3, tuple([self.mt[i] for i in range(N)]) + (self.index,), gauss))

    cdef inline uint32_t next_word(self) noexcept:
        cdef uint32_t y
        cdef int kk
        if self.index >= N:
            for kk in range(N - M):
                y = (self.mt[kk] & 0x80000000U) | (self.mt[kk + 1] & 0x7FFFFFFFU)
                self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ (0x9908B0DFU if y & 1 else 0)
            for kk in range(N - M, N - 1):
                y = (self.mt[kk] & 0x80000000U) | (self.mt[kk + 1] & 0x7FFFFFFFU)
                self.mt[kk] = self.mt[kk + (M - N)] ^ (y >> 1) ^ (0x9908B0DFU if y & 1 else 0)
            y = (self.mt[N - 1] & 0x80000000U) | (self.mt[0] & 0x7FFFFFFFU)
            self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ (0x9908B0DFU if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680U
        y ^= (y << 15) & 0xEFC60000U
        y ^= y >> 18
        return y

    cdef inline double next_double(self) noexcept:
        cdef uint32_t a = self.next_word() >> 5
        cdef uint32_t b = self.next_word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    cdef inline int below(self, int n) noexcept:
        """``random.Random._randbelow(n)``: the top bits of a word, redrawn until below n."""
        cdef int k = 0, r
        while (n >> k) > 0:
            k += 1
        r = self.next_word() >> (32 - k)
        while r >= n:
            r = self.next_word() >> (32 - k)
        return r

    cdef void shuffle(self, int *x, int n) noexcept:
        """``random.Random.shuffle`` of the first ``n`` of ``x``."""
        cdef int i, j, swap
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            swap = x[i]
            x[i] = x[j]
            x[j] = swap

    def random(self) -> float:
        """The next float in [0, 1), as ``random.Random.random``."""
        return self.next_double()

    def shuffled(self, items) -> list:
        """``items`` (ints) shuffled as ``random.Random.shuffle`` would shuffle them."""
        cdef int x[MAX_UNSEEN]
        cdef int n = len(items), i
        if n > MAX_UNSEEN:
            raise ValueError("too many items")
        for i in range(n):
            x[i] = items[i]
        self.shuffle(x, n)
        return [x[i] for i in range(n)]


cdef class Table:
    """``fastplay.Table`` in C arrays: garden, visitors, unplaced, hands (unknown: size -1)."""

    cdef int _garden[25]
    cdef int _visitors[LINE_COUNT]
    cdef int _unplaced[MAX_SEATS]
    cdef int _hands[MAX_SEATS][4]
    cdef int hand_size[MAX_SEATS]
    cdef int _positions[LINE_COUNT]
    cdef int position_count
    cdef public int players, must_pick, to_move, first_player

    @staticmethod
    def of(reference) -> Table:
        """This table of a ``fastplay.Table`` (a full state's or a view's)."""
        cdef Table table = Table.__new__(Table)
        cdef int i
        for i in range(25):
            table._garden[i] = reference.garden[i]
        for i in range(LINE_COUNT):
            table._visitors[i] = reference.visitors[i]
        table.players = reference.players
        for i in range(table.players):
            table._unplaced[i] = reference.unplaced[i]
            hand = reference.hands[i]
            table.hand_size[i] = -1 if hand is None else len(hand)
            if hand is not None:
                for k, tile in enumerate(hand):
                    table._hands[i][k] = tile
        table.position_count = len(reference.positions)
        for i, p in enumerate(reference.positions):
            table._positions[i] = p
        table.must_pick = reference.must_pick
        table.to_move = reference.to_move
        table.first_player = reference.first_player
        return table

    cpdef Table copy(self):
        """An independent copy."""
        cdef Table other = Table.__new__(Table)
        other._garden = self._garden
        other._visitors = self._visitors
        other._unplaced = self._unplaced
        other._hands = self._hands
        other.hand_size = self.hand_size
        other._positions = self._positions
        other.position_count = self.position_count
        other.players = self.players
        other.must_pick = self.must_pick
        other.to_move = self.to_move
        other.first_player = self.first_player
        return other

    @property
    def garden(self) -> list:
        return [self._garden[i] for i in range(25)]

    @property
    def visitors(self) -> list:
        return [self._visitors[i] for i in range(LINE_COUNT)]

    @property
    def unplaced(self) -> list:
        return [self._unplaced[i] for i in range(self.players)]

    @property
    def hands(self) -> list:
        return [
            None if self.hand_size[s] < 0 else [self._hands[s][k] for k in range(self.hand_size[s])]
            for s in range(self.players)
        ]

    cdef int next_seat(self, int mover) noexcept:
        cdef int step, seat
        for step in range(1, self.players + 1):
            seat = (mover + step) % self.players
            if self._unplaced[seat]:
                return seat
        return -1

    def play(self, int code) -> None:
        """Play a legal play-phase move code in place (unchecked), as ``fastplay.Table.play``."""
        cdef int rest = code // PLANTS, plant = code % PLANTS
        cdef int p = rest // 26, cell = rest % 26
        cdef int mover = self.to_move, taken, k
        if cell != NO_TAKE:
            taken = self._garden[cell] - FACE_DOWN
            if plant:
                for k in range(self.hand_size[mover]):
                    if self._hands[mover][k] == plant - 1:
                        self._hands[mover][k] = taken
                        break
                self._garden[cell] = plant - 1
            else:
                self._garden[cell] = taken
        self._visitors[p] = mover
        self._unplaced[mover] -= 1
        self.to_move = self.next_seat(mover)

    cdef unsigned long long seen_by(self, int seat) noexcept:
        """The tiles ``seat``'s visitors see (bit ``tile``)."""
        cdef unsigned long long seen = 0
        cdef int q
        for q in range(LINE_COUNT):
            if self._visitors[q] == seat:
                line_points(self._garden, q, &seen)
        return seen

    cdef int best_take_at(self, int p, int *downs, int *count, int *worth) noexcept:
        cdef int mover = self.to_move
        count[0] = face_down_cells(self._garden, p, downs)
        return best_take(self._garden, self._visitors, mover, p, downs, count[0],
                         self._hands[mover], self.hand_size[mover],
                         0 if self.must_pick else 1, self.seen_by(mover), worth)

    def worth_at(self, int p) -> int:
        """As ``fastplay.Table.worth_at``: the mover's best take's worth at ``p``."""
        cdef int downs[5]
        cdef int count, worth
        self.best_take_at(p, downs, &count, &worth)
        return worth

    def play_best_at(self, int p) -> None:
        """As ``fastplay.Table.play_best_at``: place at ``p`` with the best take there."""
        cdef int downs[5]
        cdef int count, worth, slot, k = self.best_take_at(p, downs, &count, &worth)
        if k < 0:
            self.play((p * 26 + NO_TAKE) * PLANTS)
        else:
            slot = k & 3
            self.play((p * 26 + downs[k >> 2]) * PLANTS
                      + (self._hands[self.to_move][slot - 1] + 1 if slot else 0))

    def plant(self, int cell, int tile) -> None:
        """Finish the mover's pending take in place, as ``fastplay.Table.plant``."""
        cdef int mover = self.to_move, k, size = self.hand_size[mover]
        for k in range(size):
            if self._hands[mover][k] == tile:
                # list.remove keeps the order of the others
                for k in range(k, size - 1):
                    self._hands[mover][k] = self._hands[mover][k + 1]
                self.hand_size[mover] = size - 1
                break
        self._garden[cell] = tile
        self.to_move = self.next_seat(mover)

    def totals(self) -> tuple:
        """Every seat's (total, hand points), as ``fastplay.Table.totals``."""
        cdef int points[MAX_SEATS]
        cdef int hand[MAX_SEATS]
        self.score(points, hand)
        return (
            [points[s] for s in range(self.players)],
            [hand[s] for s in range(self.players)],
        )

    def at(self, int cell) -> int:
        """The garden's code at ``cell``."""
        return self._garden[cell]

    cpdef double reward(self, int seat, double scale):
        """As ``fastplay.Table.reward``: half for winning alone (the default tie-break: the
        tied seat latest in turn order), half for the squashed margin."""
        cdef int points[MAX_SEATS]
        cdef int hand[MAX_SEATS]
        cdef int k, s, best = -1, rival = -1000000
        self.score(points, hand)
        for k in range(self.players):
            s = (self.first_player + k) % self.players
            if best < 0 or points[s] > points[best] or (
                points[s] == points[best] and hand[s] >= hand[best]
            ):
                best = s
            if s != seat and points[s] > rival:
                rival = points[s]
        return (0.5 if best == seat else 0.0) + 0.5 / (1.0 + exp(-(points[seat] - rival) / scale))

    def plant_order(self, lines_of_mine, int cell, int took, hand) -> list:
        """As ``fastplay.Table.plant_order``: plants best first by the mover's score."""
        cdef int tiles[5]
        cdef int scores[5]
        cdef int order[5]
        cdef int lines[LINE_COUNT]
        cdef int n = 1 + len(hand), count = len(lines_of_mine), a, b, i, points, saved, key
        cdef unsigned long long seen
        tiles[0] = took
        for a in range(n - 1):
            tiles[a + 1] = hand[a]
        for i in range(count):
            lines[i] = lines_of_mine[i]
        saved = self._garden[cell]
        for a in range(n):
            self._garden[cell] = tiles[a]
            seen = 0
            points = 0
            for i in range(count):
                points += line_points(self._garden, lines[i], &seen)
            for b in range(n):
                if b != a and seen & beats[tiles[b]]:
                    points += tiles[b] % 5 + 1
            scores[a] = points
        self._garden[cell] = saved
        for a in range(n):  # a stable insertion sort, best first
            key = a
            b = a
            while b > 0 and scores[order[b - 1]] < scores[key]:
                order[b] = order[b - 1]
                b -= 1
            order[b] = key
        return [order[a] for a in range(n)]

    cdef void score(self, int *points, int *hand_points) noexcept:
        cdef unsigned long long seen[MAX_SEATS]
        cdef unsigned long long line_seen
        cdef int p, s, k, i, tile, value, top, kind, kinds, pairs
        for s in range(self.players):
            points[s] = 0
            seen[s] = 0
        for p in range(LINE_COUNT):
            s = self._visitors[p]
            if s < 0:
                continue
            top = kinds = pairs = 0
            line_seen = 0
            for i in range(line_length[p]):
                tile = self._garden[line_cells[p][i]]
                if tile >= FACE_DOWN:
                    continue
                value = tile % 5 + 1
                if value > top:
                    top = value
                    points[s] += value
                    line_seen |= 1ULL << tile
                    kind = 1 << (tile // 5)
                    if kinds & kind:
                        points[s] += 1 if pairs & kind else 2
                        pairs |= kind
                    kinds |= kind
            seen[s] |= line_seen
        for s in range(self.players):
            hand_points[s] = hand_value(self._hands[s], self.hand_size[s], seen[s])
            points[s] += hand_points[s]


cdef inline int line_points(int *garden, int p, unsigned long long *seen) noexcept:
    """The points of sight line ``p`` (``scoring.line_points``); its seen tiles join ``seen``."""
    cdef int i, tile, value, kind, top = 0, kinds = 0, pairs = 0, points = 0
    for i in range(line_length[p]):
        tile = garden[line_cells[p][i]]
        if tile >= FACE_DOWN:
            continue
        value = tile % 5 + 1
        if value > top:
            top = value
            points += value
            seen[0] |= 1ULL << tile
            kind = 1 << (tile // 5)
            if kinds & kind:
                points += 1 if pairs & kind else 2
                pairs |= kind
            kinds |= kind
    return points


cdef void run_playout(Table table, Stream stream) noexcept:
    cdef int free[LINE_COUNT]
    cdef int downs[5]
    cdef int free_count = 0, down_count, left = 0, seat, p, i, k, cell, taken, slot, c
    cdef int no_take = 0 if table.must_pick else 1
    cdef double r, fraction
    for i in range(table.position_count):
        p = table._positions[i]
        if table._visitors[p] < 0:
            free[free_count] = p
            free_count += 1
    for i in range(table.players):
        left += table._unplaced[i]
    seat = table.to_move
    while left:
        r = stream.next_double() * free_count
        i = <int>r
        fraction = r - i
        p = free[i]
        free_count -= 1
        free[i] = free[free_count]
        down_count = 0
        for k in range(line_length[p]):
            c = line_cells[p][k]
            if table._garden[c] >= FACE_DOWN:
                downs[down_count] = c
                down_count += 1
        if down_count:
            k = <int>(fraction * (4 * down_count + no_take)) - no_take
            if k >= 0:
                cell = downs[k >> 2]
                taken = table._garden[cell] - FACE_DOWN
                slot = k & 3
                if slot:
                    table._garden[cell] = table._hands[seat][slot - 1]
                    table._hands[seat][slot - 1] = taken
                else:
                    table._garden[cell] = taken
        table._visitors[p] = seat
        table._unplaced[seat] -= 1
        left -= 1
        if left:
            seat = (seat + 1) % table.players
            while not table._unplaced[seat]:
                seat = (seat + 1) % table.players
    table.to_move = -1


def playout(Table table, Stream stream) -> None:
    """Play random moves in place to the end, as ``fastplay.playout`` with ``stream.random``."""
    run_playout(table, stream)


cdef inline int hand_value(int *hand, int size, unsigned long long seen) noexcept:
    """``scoring.hand_points``: the hand tiles a tile in ``seen`` beats, summed."""
    cdef int k, total = 0
    for k in range(size):
        if seen & beats[hand[k]]:
            total += hand[k] % 5 + 1
    return total


cdef int through_count[25]
cdef int through[25][8]
for _cell in range(25):
    through_count[_cell] = 0
    for _p, _line in enumerate(_LINES):
        if _cell in _line:
            through[_cell][through_count[_cell]] = _p
            through_count[_cell] += 1


cdef int lines_through(int *garden, int *visitors, int seat, int cell, int skip) noexcept:
    """``fastplay._lines_through``: the occupied lines through ``cell`` but ``skip``'s, the
    seat's own counted up, the other seats' down."""
    cdef unsigned long long scratch = 0
    cdef int k, q, owner, total = 0
    for k in range(through_count[cell]):
        q = through[cell][k]
        owner = visitors[q]
        if owner < 0 or q == skip:
            continue
        if owner == seat:
            total += line_points(garden, q, &scratch)
        else:
            total -= line_points(garden, q, &scratch)
    return total


cdef int best_take(int *garden, int *visitors, int seat, int p, int *downs, int down_count,
                   int *hand, int size, int no_take, unsigned long long seen_by_mover,
                   int *best_points) noexcept:
    """``fastplay._best_take``: the option number (-1: no take) worth the most to the mover
    at ``p`` (line, hand, and the other occupied lines through the cell), the first such;
    that worth goes to ``best_points``."""
    cdef unsigned long long seen
    cdef int best_k = -1, best = NO_MOVE
    cdef int d, slot, cell, code, points, kept, before
    if no_take or not down_count:
        seen = 0
        best = line_points(garden, p, &seen) + hand_value(hand, size, seen_by_mover | seen)
    for d in range(down_count):
        cell = downs[d]
        code = garden[cell]
        before = lines_through(garden, visitors, seat, cell, p)
        for slot in range(4):
            seen = 0
            if slot == 0:
                garden[cell] = code - FACE_DOWN
                points = line_points(garden, p, &seen)
                points += hand_value(hand, size, seen_by_mover | seen)
            else:
                kept = hand[slot - 1]
                garden[cell] = kept
                hand[slot - 1] = code - FACE_DOWN
                points = line_points(garden, p, &seen)
                points += hand_value(hand, size, seen_by_mover | seen)
                hand[slot - 1] = kept
            points += lines_through(garden, visitors, seat, cell, p) - before
            if points > best:
                best_k = 4 * d + slot
                best = points
        garden[cell] = code
    best_points[0] = best
    return best_k


cdef inline int face_down_cells(int *garden, int p, int *downs) noexcept:
    cdef int k, c, count = 0
    for k in range(line_length[p]):
        c = line_cells[p][k]
        if garden[c] >= FACE_DOWN:
            downs[count] = c
            count += 1
    return count


cdef void run_guided_playout(Table table, Stream stream, double explore, int candidates) noexcept:
    cdef int free[LINE_COUNT]
    cdef int downs[5]
    cdef int j_downs[5]
    cdef unsigned long long seen_by[MAX_SEATS]
    cdef int free_count = 0, down_count = 0, j_count, left = 0, seat, p, i = 0, j, k = -1, j_k
    cdef int cell, taken, slot, c, best, points, s
    cdef int no_take = 0 if table.must_pick else 1
    cdef double r
    for s in range(MAX_SEATS):
        seen_by[s] = 0
    for p in range(LINE_COUNT):
        s = table._visitors[p]
        if s >= 0:
            line_points(table._garden, p, &seen_by[s])
    for i in range(table.position_count):
        p = table._positions[i]
        if table._visitors[p] < 0:
            free[free_count] = p
            free_count += 1
    for i in range(table.players):
        left += table._unplaced[i]
    seat = table.to_move
    while left:
        r = stream.next_double()
        if r < explore:
            r = r / explore * free_count
            i = <int>r
            p = free[i]
            down_count = face_down_cells(table._garden, p, downs)
            if down_count:
                k = <int>((r - i) * (4 * down_count + no_take)) - no_take
            else:
                k = -1
        else:
            best = NO_MOVE
            for c in range(candidates):
                j = <int>(stream.next_double() * free_count)
                j_count = face_down_cells(table._garden, free[j], j_downs)
                j_k = best_take(table._garden, table._visitors, seat, free[j], j_downs,
                                j_count, table._hands[seat], table.hand_size[seat], no_take,
                                seen_by[seat], &points)
                if points > best:
                    i = j
                    k = j_k
                    best = points
                    down_count = j_count
                    downs = j_downs
            p = free[i]
        free_count -= 1
        free[i] = free[free_count]
        if k >= 0:
            cell = downs[k >> 2]
            taken = table._garden[cell] - FACE_DOWN
            slot = k & 3
            if slot:
                table._garden[cell] = table._hands[seat][slot - 1]
                table._hands[seat][slot - 1] = taken
            else:
                table._garden[cell] = taken
        table._visitors[p] = seat
        line_points(table._garden, p, &seen_by[seat])
        table._unplaced[seat] -= 1
        left -= 1
        if left:
            seat = (seat + 1) % table.players
            while not table._unplaced[seat]:
                seat = (seat + 1) % table.players
    table.to_move = -1


def guided_playout(Table table, Stream stream, double explore, int candidates) -> None:
    """Play to the end in place, mostly greedy over each move's worth to its mover, as
    ``fastplay.guided_playout`` with ``stream.random``."""
    run_guided_playout(table, stream, explore, candidates)


cdef class Dealer:
    """``fastplay.Dealer``'s deals as compiled tables: the same tiles from the same stream.

    Built from a ``fastplay.Dealer``: the unseen tiles sorted on random keys, or, when the
    viewer passed tiles on in a draft, those tiles shuffled into the slots they can be in
    and the rest shuffled into the others (``topiary.Dealer.tiles``).
    """

    cdef Table table
    cdef int unseen[MAX_UNSEEN]
    cdef int unseen_count
    cdef int passed[MAX_UNSEEN]
    cdef int passed_count
    cdef int passed_slots[MAX_UNSEEN]
    cdef int passed_slot_count
    cdef int rest[MAX_UNSEEN]
    cdef int rest_count
    cdef int down_cells[25]
    cdef int down_count
    cdef int others[MAX_SEATS]
    cdef int other_count

    def __init__(self, reference):
        self.table = Table.of(reference.table)
        self.passed_count = len(reference.passed)
        for i, tile in enumerate(reference.passed):
            self.passed[i] = tile
        self.passed_slot_count = len(reference.passed_slots)
        for i, slot in enumerate(reference.passed_slots):
            self.passed_slots[i] = slot
        rest = [t for t in reference.unseen if t not in reference.passed]
        self.rest_count = len(rest)
        for i, tile in enumerate(rest):
            self.rest[i] = tile
        self.unseen_count = len(reference.unseen)
        for i, tile in enumerate(reference.unseen):
            self.unseen[i] = tile
        self.down_count = len(reference.down_cells)
        for i, cell in enumerate(reference.down_cells):
            self.down_cells[i] = cell
        self.other_count = len(reference.others)
        for i, seat in enumerate(reference.others):
            self.others[i] = seat

    def deal(self, Stream stream) -> Table:
        """A random full table consistent with the view, as ``fastplay.Dealer.deal``."""
        cdef int tiles[MAX_UNSEEN]
        cdef int i, at, k, s
        cdef Table table = self.table.copy()
        if self.passed_count:
            self.tiles_with_passed(stream, tiles)
        else:
            self.tiles_shuffled(stream, tiles)
        for i in range(self.down_count):
            table._garden[self.down_cells[i]] = tiles[i] + FACE_DOWN
        at = self.down_count
        for i in range(self.other_count):
            s = self.others[i]
            for k in range(3):
                table._hands[s][k] = tiles[at + k]
            table.hand_size[s] = 3
            at += 3
        return table

    cdef void tiles_shuffled(self, Stream stream, int *tiles) noexcept:
        cdef double keys[MAX_UNSEEN]
        cdef int order[MAX_UNSEEN]
        cdef int i, j, moving
        cdef double key
        # The reference sorts the unseen tiles on one random key each, drawn in order; an
        # insertion sort is stable as ``sorted`` is.
        for i in range(self.unseen_count):
            keys[i] = stream.next_double()
            order[i] = i
        for i in range(1, self.unseen_count):
            moving = order[i]
            key = keys[moving]
            j = i - 1
            while j >= 0 and keys[order[j]] > key:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = moving
        for i in range(self.unseen_count):
            tiles[i] = self.unseen[order[i]]

    cdef void tiles_with_passed(self, Stream stream, int *tiles) noexcept:
        cdef int slots[MAX_UNSEEN]
        cdef int rest[MAX_UNSEEN]
        cdef int i, at = 0
        for i in range(self.passed_slot_count):
            slots[i] = self.passed_slots[i]
        stream.shuffle(slots, self.passed_slot_count)
        for i in range(self.unseen_count):
            tiles[i] = -1
        for i in range(min(self.passed_count, self.passed_slot_count)):
            tiles[slots[i]] = self.passed[i]
        for i in range(self.rest_count):
            rest[i] = self.rest[i]
        stream.shuffle(rest, self.rest_count)
        for i in range(self.unseen_count):
            if tiles[i] < 0:
                tiles[i] = rest[at]
                at += 1


def bandit(int arms, pull, double start, double budget, iterations, double exploration,
           int widen_base, double widen_per_sqrt, double budget_share) -> int:
    """``engine.search.bandit`` with its arithmetic in C: the same arms pulled in the same
    order (the same IEEE operations on the same numbers), so the same choice for the same
    pulls; ``pull(arm)`` stays a Python callable. The constants are the reference's."""
    cdef double *means = <double *>malloc(arms * sizeof(double))
    cdef double *spread = <double *>malloc(arms * sizeof(double))
    cdef long *visits = <long *>malloc(arms * sizeof(long))
    cdef long total = 0, cap = -1
    cdef int opened = 0, width, arm, i
    cdef double deadline = start + budget * budget_share, c, score, best, reward
    clock = _time.perf_counter
    if means == NULL or spread == NULL or visits == NULL:
        free(means)
        free(spread)
        free(visits)
        raise MemoryError()
    if iterations is not None:
        cap = iterations
    try:
        for i in range(arms):
            means[i] = 0.0
            spread[i] = 0.0
            visits[i] = 0
        while (total < cap) if cap >= 0 else (clock() < deadline):
            width = min(arms, widen_base + <int>(widen_per_sqrt * sqrt(<double>total)))
            if opened < width:
                arm = opened
                opened += 1
            else:
                c = exploration * sqrt(log(<double>total))
                arm = 0
                best = means[0] + c * spread[0]
                for i in range(1, width):
                    score = means[i] + c * spread[i]
                    if score > best:
                        best = score
                        arm = i
            reward = pull(arm)
            visits[arm] += 1
            means[arm] += (reward - means[arm]) / visits[arm]
            spread[arm] = 1.0 / sqrt(<double>visits[arm])
            total += 1
        arm = 0
        for i in range(1, arms):
            if visits[i] > visits[arm]:
                arm = i
        return arm
    finally:
        free(means)
        free(spread)
        free(visits)


cdef class PriorBandit:
    """``bots._PriorBandit`` in C: the same arms chosen for the same rewards."""

    cdef int order[MAX_ARMS]
    cdef long visits[MAX_ARMS]
    cdef double means[MAX_ARMS]
    cdef int count, opened
    cdef long total
    cdef double widen_every, exploration

    def __init__(self, order, double widen_every, double exploration):
        if len(order) > MAX_ARMS:
            raise ValueError(f"at most {MAX_ARMS} arms")
        self.count = len(order)
        for i, arm in enumerate(order):
            self.order[i] = arm
            self.visits[i] = 0
            self.means[i] = 0.0
        self.total = 0
        self.opened = 0
        self.widen_every = widen_every
        self.exploration = exploration

    cpdef int select(self):
        cdef int width = min(self.count, 1 + <int>sqrt(self.total / self.widen_every))
        cdef int k, i, best_i
        cdef double c, value, best
        if self.opened < width:
            self.opened += 1
            return self.order[self.opened - 1]
        c = self.exploration * sqrt(log(<double>self.total))
        best_i = self.order[0]
        best = self.means[best_i] + c / sqrt(<double>self.visits[best_i])
        for k in range(1, width):
            i = self.order[k]
            value = self.means[i] + c / sqrt(<double>self.visits[i])
            if value > best:
                best = value
                best_i = i
        return best_i

    cpdef void update(self, int arm, double reward):
        self.visits[arm] += 1
        self.means[arm] += (reward - self.means[arm]) / self.visits[arm]
        self.total += 1
