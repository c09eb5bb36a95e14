"""The exact solver of the "best placement" puzzle (PUZZLES.md), and grading a submission.

How the solver stays exact and fast
-----------------------------------
A puzzle position gives the seat to move ``K`` visitors and nobody else any, with every
identity known. A solution is ``K`` turns; each places a visitor and may take a face-down
tile from that visitor's line and plant a hand tile (or the one taken) in the gap.

* A placement without a take changes neither the garden nor the hand, so it commutes with
  everything: every solution can be reordered so that its takes come first and its plain
  placements last. The search therefore branches only on *takes* ``(cell, plant)``.
* Which visitor carried a take matters only through where that visitor stands, so carriers
  are chosen at the end together with the plain placements: the final choice is ``K`` free
  positions such that every taken cell lies in the line of a distinct chosen position (a
  matching). Given the garden and hand, that choice is solved exactly by a small dynamic
  programme over (positions chosen, hand tiles newly scoring, takes carried).
* Two takes in a row commute unless the second plants the tile the first took, so
  commuting pairs are searched in increasing cell order only; take sequences that still
  reach the same garden and hand are transpositions: one memo entry.
* Branch and bound: at each node the exact final choice is computed only when a sound upper
  bound (old visitors' lines + the K best free lines + every hand tile that any line could
  justify) reaches the best score found so far, which starts at the greedy score.

Nothing is sampled: every take sequence is enumerated, so the optimum is proven.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

from engine import topiary
from engine.errors import IllegalMove, NotationError
from engine.topiary import FACE_DOWN, LINES, TILE_VALUE
from engine.topiary.fastplay import BEATS, POSITIONS_THROUGH, line_points, move_code

#: The game the puzzles are positions of (the command line offers them for it alone).
GAME = topiary.GAME
#: Per position: the garden cells along its line, read in one call (a tuple, or one value).
LINE_CONTENTS = tuple(operator.itemgetter(*line) for line in LINES)


@dataclass(frozen=True)
class Solution:
    """The proven optimum of a puzzle position, one optimal line, and how greedy fares."""

    optimum: int
    line: tuple[str, ...]
    optimal_first_moves: int
    greedy: int
    legal_first_moves: int = field(default=0, compare=False)
    #: Every optimal first move, in notation order (``optimal_first_moves`` counts them).
    first_moves: tuple[str, ...] = field(default=(), compare=False)
    #: Search nodes the proof visited (take sequences whose final choice was examined).
    nodes: int = field(default=0, compare=False)

    def to_json(self) -> dict:
        """``{"optimum", "line", "optimal_first_moves", "greedy"}`` as the CLI prints it
        (exactly these four: a published format; a mined puzzle's stored figures are
        checked against them)."""
        return {
            "optimum": self.optimum,
            "line": list(self.line),
            "optimal_first_moves": self.optimal_first_moves,
            "greedy": self.greedy,
        }


class SearchBudgetExceeded(Exception):
    """A proof needed more search nodes than its budget allowed: nothing was proven."""

    def __init__(self, nodes: int):
        super().__init__(f"the proof needed more than {nodes} search nodes")
        self.nodes = nodes


# --------------------------------------------------------------------------- the puzzle seat


def puzzle_seat(state: topiary.State) -> tuple[int, int]:
    """``(seat, K)`` of a puzzle position; NotationError if the position is not a puzzle."""
    if not isinstance(state, topiary.State):
        raise NotationError(code="puzzle_not_topiary", type=type(state).__name__)
    if state.phase != "play":
        raise NotationError(code="puzzle_not_in_play", phase=state.phase)
    seat = state.to_move
    others = [s for s in range(state.players) if s != seat and state.unplaced[s]]
    if others:
        raise NotationError(code="puzzle_others_unplaced", seat=others[0], mover=seat)
    return seat, state.unplaced[seat]


def greedy_score(state: topiary.State) -> int:
    """The solver's final score playing the best-scoring single turn K times.

    Ties go to the first move in notation order, so the greedy line is well defined.
    """
    seat, k = puzzle_seat(state)
    for _ in range(k):
        best = None
        for move in state.legal_moves():
            after = state.apply(move)
            total = after.totals()[seat]
            if best is None or total > best[0]:
                best = (total, after)
        state = best[1]
    return state.totals()[seat]


# --------------------------------------------------------------------------- the solver


class _Search:
    """Branch and bound over take sequences; see the module docstring."""

    def __init__(self, state: topiary.State, max_nodes: int | None = None):
        self.state = state
        self.nodes = 0
        self.max_nodes = max_nodes
        self.seat, self.k = puzzle_seat(state)
        visitors = state.visitors
        self.garden = list(state.garden)
        self.hand = list(state.hands[self.seat])
        self.old = [p for p, s in enumerate(visitors) if s == self.seat]
        self.free = [p for p in state.options.positions if visitors[p] < 0]
        self.must_pick = state.options.must_pick
        free = set(self.free)
        self.carriers = [tuple(p for p in POSITIONS_THROUGH[c] if p in free) for c in range(25)]
        mine_or_free = set(self.old) | free
        # Lines that matter when a cell changes: the solver's old visitors and free positions.
        self.through = [
            tuple(p for p in POSITIONS_THROUGH[c] if p in mine_or_free) for c in range(25)
        ]
        self.points = [0] * len(LINES)
        self.seen = [0] * len(LINES)
        for p in self.old + self.free:
            self.points[p], self.seen[p] = line_points(self.garden, LINES[p])
        self.taken: list[int] = []
        self.taken_tiles: list[int] = []
        self.line_cache: dict = {}
        self.free_points = operator.itemgetter(*self.free)
        self.memo: dict[tuple, int] = {}
        self.best = -1
        self.optimal_nodes: list[tuple] = []

    # -- the final choice of positions

    def _hand_terms(self):
        """Hand points already justified by old visitors, and the other hand tiles as
        (bit, value, beats) for the final choice."""
        old_seen = 0
        for p in self.old:
            old_seen |= self.seen[p]
        fixed = 0
        open_tiles = []
        for i, tile in enumerate(self.hand):
            if old_seen & BEATS[tile]:
                fixed += TILE_VALUE[tile]
            else:
                open_tiles.append((1 << i, TILE_VALUE[tile], BEATS[tile]))
        return fixed, open_tiles

    def upper_bound(self, forced: int | None = None) -> int:
        """A sound bound on any final choice at this node (no further takes), or on those
        that include the position ``forced``."""
        points = self.points
        fixed, open_tiles = self._hand_terms()
        if forced is None:
            top = sorted(self.free_points(points))[-self.k :]
        else:
            others = sorted(points[p] for p in self.free if p != forced)
            top = [points[forced], *others[len(others) - self.k + 1 :]]
        return (
            sum(points[p] for p in self.old) + sum(top) + fixed + sum(v for _, v, _ in open_tiles)
        )

    def final_choice(self, forced: tuple[int, int] | None = None, traced: bool = False):
        """The exact best final choice at this node: (score, ((position, take index or -1), ...)).

        ``forced`` = (position, take index or -1) must be part of the choice. Returns
        (-1, ()) when no choice can carry every take. The choice itself is traced (and
        returned) only when ``traced``: the search needs just the score.
        """
        k = self.k
        points, seen = self.points, self.seen
        taken = self.taken
        full = (1 << len(taken)) - 1
        fixed, open_tiles = self._hand_terms()
        base = sum(points[p] for p in self.old) + fixed
        start = (0, 0, 0)
        states: dict[tuple[int, int, int], tuple[int, tuple]] = {start: (0, ())}
        groups: dict[int, list[int]] = {}
        carriers = []
        forced_position = None if forced is None else forced[0]
        for p in self.free:
            hand_bits = 0
            for bit, _, beats in open_tiles:
                if seen[p] & beats:
                    hand_bits |= bit
            carry = 0
            for j, cell in enumerate(taken):
                if cell in LINES[p]:
                    carry |= 1 << j
            if p == forced_position:
                role = forced[1]
                if role >= 0 and not carry >> role & 1:
                    return -1, ()
                if role < 0 and not self.plain_allowed(p):
                    return -1, ()
                states = {(1, hand_bits, 0 if role < 0 else 1 << role): (points[p], (forced,))}
            elif carry:
                carriers.append((p, hand_bits, carry))
            elif self.plain_allowed(p):
                groups.setdefault(hand_bits, []).append(p)
        # Only the k best plain positions of each hand-bits group can be in an optimal
        # choice: any other one swaps for an unused better one of its group.
        candidates = list(carriers)
        for hand_bits, group in groups.items():
            group.sort(key=lambda p: -points[p])
            candidates.extend((p, hand_bits, 0) for p in group[:k])
        for p, hand_bits, carry in candidates:
            plain = carry == 0 or self.plain_allowed(p)
            gain = points[p]
            grown = dict(states)
            for (n, bits, cov), (value, chosen) in states.items():
                if n == k:
                    continue
                options = [-1] if plain else []
                options += [j for j in range(len(taken)) if carry >> j & 1 and not cov >> j & 1]
                for j in options:
                    key = (n + 1, bits | hand_bits, cov if j < 0 else cov | 1 << j)
                    total = value + gain
                    if key not in grown or grown[key][0] < total:
                        grown[key] = (total, (*chosen, (p, j)) if traced else ())
            states = grown
        best = (-1, ())
        for (n, bits, cov), (value, chosen) in states.items():
            if n == k and cov == full:
                total = base + value + sum(v for bit, v, _ in open_tiles if bits & bit)
                if total > best[0]:
                    best = (total, chosen)
        return best

    def plain_allowed(self, p: int) -> bool:
        """True if a plain placement at ``p`` is legal now (``must_pick`` forbids it while
        the line holds a face-down tile)."""
        if not self.must_pick:
            return True
        garden = self.garden
        return all(garden[c] < FACE_DOWN for c in LINES[p])

    # -- takes

    def _can_carry(self, cells: list[int]) -> bool:
        """True if distinct free positions can carry every cell (a bipartite matching)."""
        owner: dict[int, int] = {}

        def assign(j: int, seen: set) -> bool:
            for p in self.carriers[cells[j]]:
                if p in seen:
                    continue
                seen.add(p)
                if p not in owner or assign(owner[p], seen):
                    owner[p] = j
                    return True
            return False

        return all(assign(j, set()) for j in range(len(cells)))

    def takes(self) -> list[tuple[int, int | None]]:
        """The takes open at this node: (cell, planted hand tile or None for the taken tile).

        Two takes in a row commute unless the second plants the tile the first took, so
        commuting pairs are searched in one order only: a take at a lower cell than the
        previous one must plant the tile that one took.
        """
        if len(self.taken) >= self.k:
            return []
        garden = self.garden
        last_cell, last_tile = (self.taken[-1], self.taken_tiles[-1]) if self.taken else (-1, None)
        hand = sorted(self.hand)
        out = []
        for cell in range(25):
            if (
                garden[cell] >= FACE_DOWN
                and self.carriers[cell]
                and self._can_carry([*self.taken, cell])
            ):
                if cell > last_cell:
                    out.append((cell, None))
                    out.extend((cell, tile) for tile in hand)
                elif last_tile in hand:
                    out.append((cell, last_tile))
        return out

    def do(self, cell: int, plant: int | None):
        """Make a take; returns what ``undo`` needs."""
        garden, hand = self.garden, self.hand
        taken_tile = garden[cell] - FACE_DOWN
        if plant is None:
            garden[cell] = taken_tile
            slot = -1
        else:
            slot = hand.index(plant)
            hand[slot] = taken_tile
            garden[cell] = plant
        through = self.through[cell]
        points, seen, cache = self.points, self.seen, self.line_cache
        saved = [(p, points[p], seen[p]) for p in through]
        for p in through:
            # A line's score depends only on what lies along it: cache by contents.
            contents = LINE_CONTENTS[p](garden)
            known = cache.get(contents)
            if known is None:
                known = cache[contents] = line_points(garden, LINES[p])
            points[p], seen[p] = known
        self.taken.append(cell)
        self.taken_tiles.append(taken_tile)
        return cell, taken_tile, slot, plant, saved

    def undo(self, made) -> None:
        """Take back ``do``."""
        cell, taken_tile, slot, plant, saved = made
        self.garden[cell] = taken_tile + FACE_DOWN
        if slot >= 0:
            self.hand[slot] = plant
        for p, pts, mask in saved:
            self.points[p] = pts
            self.seen[p] = mask
        self.taken.pop()
        self.taken_tiles.pop()

    def key(self) -> tuple:
        """The node's transposition key: garden and hand (the taken cells follow from them)."""
        return tuple(self.garden), tuple(sorted(self.hand))

    # -- the search

    def run(self, floor: int) -> int:
        """The optimum; ``floor`` is a score known to be reachable (greedy)."""
        self.best = floor
        return self._visit(())

    def _visit(self, path: tuple) -> int:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(self.max_nodes)
        # Nodes where every turn has taken are most of the tree and have no children:
        # memoising them costs more than the rare transposition saves.
        leaf = len(self.taken) >= self.k
        if not leaf:
            key = self.key()
            if key in self.memo:
                return self.memo[key]
        value = -1
        if self.upper_bound() >= self.best:
            value, _ = self.final_choice()
            if value >= self.best:
                if value > self.best:
                    self.optimal_nodes = []
                self.best = value
                self.optimal_nodes.append(path)
        if leaf:
            return value
        for take in self.takes():
            made = self.do(*take)
            value = max(value, self._visit((*path, take)))
            self.undo(made)
        self.memo[key] = value
        return value

    def replay_path(self, path) -> list:
        """Make the takes of ``path`` from the root; returns the undo records."""
        return [self.do(*take) for take in path]

    def unwind(self, made) -> None:
        """Undo ``replay_path``."""
        for step in reversed(made):
            self.undo(step)

    def line(self, path, choice) -> list[int]:
        """The move codes of a solution: the takes with their carriers, then plain placements."""
        carrier = {j: p for p, j in choice if j >= 0}
        codes = [move_code(carrier[j], cell, plant) for j, (cell, plant) in enumerate(path)]
        codes += [move_code(p) for p, j in choice if j < 0]
        return codes


def solve(state: topiary.State, max_nodes: int | None = None) -> Solution:
    """The proven optimum of a puzzle position (PUZZLES.md), one optimal line, the number of
    distinct optimal first moves and the greedy score. NotationError if not a puzzle;
    SearchBudgetExceeded if ``max_nodes`` is given and the search needs more nodes."""
    search = _Search(state, max_nodes)
    greedy = greedy_score(state)
    optimum = search.run(greedy)
    optimal_paths = [p for p in search.optimal_nodes if _value_at(search, p) == optimum]
    path = optimal_paths[0]
    made = search.replay_path(path)
    _, choice = search.final_choice(traced=True)
    search.unwind(made)
    codes = search.line(path, choice)
    line = _check_line(state, search.seat, codes, optimum)
    first = _optimal_first_moves(search, optimum)
    return Solution(
        optimum=optimum,
        line=tuple(line),
        optimal_first_moves=len(first),
        greedy=greedy,
        legal_first_moves=len(state.move_codes()),
        first_moves=tuple(sorted(topiary.move_name(code) for code in first)),
        nodes=search.nodes,
    )


def _value_at(search: _Search, path) -> int:
    made = search.replay_path(path)
    value, _ = search.final_choice()
    search.unwind(made)
    return value


def _check_line(state: topiary.State, seat: int, codes: list[int], optimum: int) -> list[str]:
    """Notation of a line, replayed through the rules to prove it legal and optimal."""
    moves = []
    for code in codes:
        move = topiary.move_name(code)
        state = state.apply(move)
        moves.append(move)
    reached = state.totals()[seat]
    if reached != optimum:
        raise AssertionError(f"solver line {moves} reaches {reached}, not {optimum}")
    return moves


def _optimal_first_moves(search: _Search, optimum: int) -> set[int]:
    """The distinct first moves of optimal solutions.

    A plain placement at q can come first iff some optimal final choice uses q without a
    take. The i-th take of an optimal take sequence can come first unless it plants a tile
    an earlier take took (it commutes with every other earlier take); carried by p, it is
    an optimal first move iff an optimal final choice lets p carry it.
    """
    first: set[int] = set()
    # With must_pick a plain first move needs a line without face-down tiles *now*.
    plain_now = [p for p in search.free if search.plain_allowed(p)]
    # The walk stands on each optimal node when it yields it.
    for path in _optimal_paths(search, (), optimum):
        for p in plain_now:
            if search.upper_bound(p) >= optimum and search.final_choice((p, -1))[0] == optimum:
                first.add(move_code(p))
        for i, (cell, plant) in enumerate(path):
            if plant is not None and plant in search.taken_tiles[:i]:
                continue
            for p in search.carriers[cell]:
                if move_code(p, cell, plant) not in first and (
                    search.final_choice((p, i))[0] == optimum
                ):
                    first.add(move_code(p, cell, plant))
    return first


def _optimal_paths(search: _Search, path: tuple, optimum: int):
    """Every take sequence (as a path from the root) ending at a node with an optimal final
    choice, walking only through nodes whose memoised subtree value is the optimum."""
    if len(search.taken) >= search.k:
        if search.upper_bound() >= optimum and search.final_choice()[0] == optimum:
            yield path
        return
    if search.memo.get(search.key()) != optimum:
        return
    value, _ = search.final_choice()
    if value == optimum:
        yield path
    for take in search.takes():
        made = search.do(*take)
        yield from _optimal_paths(search, (*path, take), optimum)
        search.undo(made)


# --------------------------------------------------------------------------- grading


def grade(position: Any, moves: Any) -> int:
    """The solver's final score for a submitted line of moves on a puzzle position (JSON).

    IllegalMove (or NotationError) with the reason for a malformed position, a malformed or
    illegal move, or the wrong number of moves.
    """
    state = topiary.state_from_json(position)
    seat, k = puzzle_seat(state)
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise NotationError(code="puzzle_moves_not_list")
    if len(moves) != k:
        raise IllegalMove(code="puzzle_moves_count", needed=k, count=len(moves))
    for ply, move in enumerate(moves, start=1):
        try:
            state = state.apply(move, seat)
        except IllegalMove as error:
            raise IllegalMove(code="puzzle_move_illegal", ply=ply, inner=error) from None
    return state.totals()[seat]
