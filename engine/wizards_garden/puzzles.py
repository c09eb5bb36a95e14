"""Wizards' Garden puzzles: the best K plantings with the opponent replying best, proven.

Nothing is hidden, so a puzzle is a position of a real game, the seat to move and a depth K:
the solver plants K times, the opponent replies between them (K - 1 replies), and the line is
worth ``value`` when it ends (after the solver's K-th planting, or earlier if the game ends):

    value = 2 x (solver's flowers - opponent's flowers) + staff

where ``staff`` is +1 if the solver holds the Wizard's Staff, -1 if the opponent does, else 0
(flowers decide the game, the staff breaks a tie: one flower outweighs the staff).

``solve`` is an exact minimax (alpha-beta, nothing pruned that could matter) to that depth:
the optimum, one optimal line (the solver's moves and the opponent's best replies, each the
first in notation order among equals), every optimal first move (each first move is checked
with a null window at the optimum) and the greedy line's value (the solver plays the move
with the best value right after it, ties to the first in notation order; the opponent still
replies best). ``reply`` is the opponent's answer a trainer plays back; ``grade`` scores a
submission. ``mine`` finds puzzles in a game record (docs/PUZZLES_SEED.md, 9).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine import wizards_garden as wg
from engine.errors import IllegalMove, NotationError
from engine.mining import MinedPuzzle
from engine.puzzles import SearchBudgetExceeded

GAME = wg.GAME
#: Depths mined, and how many of a seat's last turns are looked at.
DEPTHS = (1, 2, 3)
LAST_TURNS = 6
#: Search nodes a proof may take.
MAX_NODES = 40_000
#: Kept: the optimum beats what was played by this much, greedy (K >= 2) by GREEDY_GAP,
#: and at most FEW first moves reach it.
MIN_PLAYED_GAP = 1
MIN_GREEDY_GAP = 2
FEW_FIRST_MOVES = 2
HARVEST_SHIFT = 6
THEMES = ("harvest", "staff", "double-harvest")
_INF = 10**6


def value(state: wg.State, seat: int) -> int:
    """The module docstring's value of ``state`` for the solver ``seat``."""
    (w0, b0), (w1, b1) = state.harvested
    lead = (w0 + b0) - (w1 + b1)
    if seat == 1:
        lead = -lead
    staff = 0 if state.staff is None else (1 if state.staff == seat else -1)
    return 2 * lead + staff


@dataclass(frozen=True)
class Solution:
    """The proven optimum of a Wizards' Garden puzzle and its figures."""

    optimum: int
    line: tuple[str, ...]
    first_moves: tuple[str, ...]
    greedy: int
    legal_first_moves: int
    nodes: int

    def to_json(self) -> dict:
        """As ``python -m engine wizards-garden solve`` prints it."""
        return {
            "optimum": self.optimum,
            "line": list(self.line),
            "optimal_first_moves": len(self.first_moves),
            "first_moves": list(self.first_moves),
            "greedy": self.greedy,
            "legal_first_moves": self.legal_first_moves,
            "nodes": self.nodes,
        }


class _Search:
    def __init__(self, seat: int, max_nodes: int | None):
        self.seat = seat
        self.nodes = 0
        self.max_nodes = max_nodes

    def _children(self, state: wg.State) -> list[tuple[int, wg.State]]:
        """(code, child) in notation order."""
        pairs = [(wg.move_name(code), code) for code in state.move_codes()]
        pairs.sort()
        return [(code, state.apply_code(code)) for _, code in pairs]

    def search(self, state: wg.State, plies: int, alpha: int, beta: int) -> int:
        """Minimax value of ``state`` with ``plies`` plies to go (fail-hard alpha-beta)."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(self.max_nodes)
        if plies == 0 or state.is_over:
            return value(state, self.seat)
        children = self._children(state)
        maximizing = state.to_move == self.seat
        # Search the children with the best value at once first: more cut-offs.
        sign = -1 if maximizing else 1
        children.sort(key=lambda pair: sign * value(pair[1], self.seat))
        if maximizing:
            best = -_INF
            for _, child in children:
                best = max(best, self.search(child, plies - 1, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        best = _INF
        for _, child in children:
            best = min(best, self.search(child, plies - 1, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def exact(self, state: wg.State, plies: int) -> int:
        return self.search(state, plies, -_INF, _INF)

    def reaches(self, state: wg.State, plies: int, target: int) -> bool:
        """True if the value of ``state`` is at least ``target`` (null window)."""
        return self.search(state, plies, target - 1, target) >= target


def _check(state: wg.State, k: int) -> int:
    if not isinstance(state, wg.State):
        raise NotationError(code="puzzle_not_wizards_garden", type=type(state).__name__)
    if state.phase != wg.PLAY:
        raise NotationError(code="puzzle_not_in_play", phase=state.phase)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 4:
        raise NotationError(code="puzzle_depth", k=k)
    return state.to_move


def greedy_score(state: wg.State, k: int) -> int:
    """The greedy line's value against best replies (see the module docstring)."""
    seat = _check(state, k)
    search = _Search(seat, None)

    def line(state: wg.State, left: int) -> int:
        if state.is_over or left == 0:
            return value(state, seat)
        children = search._children(state)
        best = max(children, key=lambda pair: value(pair[1], seat))[1]
        if left == 1 or best.is_over:
            return value(best, seat)
        return min(line(child, left - 1) for _, child in search._children(best))

    return line(state, k)


def solve(state: wg.State, k: int, max_nodes: int | None = None) -> Solution:
    """The proven optimum of the puzzle (``state``, K = ``k``); SearchBudgetExceeded when
    ``max_nodes`` is given and the proof needs more."""
    seat = _check(state, k)
    search = _Search(seat, max_nodes)
    plies = 2 * k - 1
    optimum = search.exact(state, plies)
    children = search._children(state)
    first = [(code, child) for code, child in children if search.reaches(child, plies - 1, optimum)]
    # One optimal line: at each ply the first move in notation order keeping the optimum.
    line = []
    node, left = state, plies
    while left and not node.is_over:
        maximizing = node.to_move == seat
        code, child = next(
            (code, child)
            for code, child in search._children(node)
            if (
                search.reaches(child, left - 1, optimum)
                if maximizing
                else not search.reaches(child, left - 1, optimum + 1)
            )
        )
        line.append(wg.move_name(code))
        node, left = child, left - 1
    if value(node, seat) != optimum:
        raise AssertionError(f"line {line} reaches {value(node, seat)}, not {optimum}")
    return Solution(
        optimum=optimum,
        line=tuple(line),
        first_moves=tuple(wg.move_name(code) for code, _ in first),
        greedy=greedy_score(state, k),
        legal_first_moves=len(children),
        nodes=search.nodes,
    )


def reply(position, k: int, moves: list[str]) -> str | None:
    """The opponent's reply after the solver's ``moves`` (and the replies before them, as
    this function gave them): the first move in notation order with the best value for the
    opponent. None once the solver has made its K moves or the game is over."""
    state = wg.state_from_json(position)
    seat = _check(state, k)
    state, left = _play(state, seat, k, moves)
    if left == 0 or state.is_over or state.to_move == seat:
        return None
    search = _Search(seat, None)
    best = None
    for code, child in search._children(state):
        got = search.exact(child, left - 1)
        if best is None or got < best[0]:
            best = (got, code)
    return wg.move_name(best[1])


def _play(state: wg.State, seat: int, k: int, moves: list[str]):
    """Replay the solver's moves with the engine's replies between; (state, plies left)."""
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise NotationError(code="puzzle_moves_not_list")
    if len(moves) > k:
        raise IllegalMove(code="puzzle_moves_count", needed=k, count=len(moves))
    left = 2 * k - 1
    search = _Search(seat, None)
    for ply, move in enumerate(moves, start=1):
        if state.is_over:
            raise IllegalMove(code="puzzle_moves_count", needed=ply - 1, count=len(moves))
        try:
            state = state.apply(move, seat)
        except IllegalMove as error:
            raise IllegalMove(code="puzzle_move_illegal", ply=ply, inner=error) from None
        left -= 1
        if left and not state.is_over and ply < len(moves):
            best = None
            for _code, child in search._children(state):
                got = search.exact(child, left - 1)
                if best is None or got < best[0]:
                    best = (got, child)
            state = best[1]
            left -= 1
    return state, left


def grade(position, k: int, moves: list[str]) -> int:
    """The value reached by the solver's ``moves`` (all K of them, or fewer if the game
    ends) against the engine's best replies."""
    state = wg.state_from_json(position)
    seat = _check(state, k)
    state, left = _play(state, seat, k, moves)
    if left and not state.is_over:
        raise IllegalMove(code="puzzle_moves_count", needed=k, count=len(moves))
    return value(state, seat)


def themes(state: wg.State, line: Iterable[str]) -> tuple[str, ...]:
    """The theme slugs of a solution ``line`` (solver's moves at even indices):

    * ``harvest``: a planting of the solver harvests;
    * ``double-harvest``: one planting of the solver harvests two lines or more;
    * ``staff``: the solver holds the staff at the end and did not at the start.
    """
    seat = state.to_move
    start_staff = state.staff
    harvests = []
    for i, move in enumerate(line):
        code = state.code_of(move)
        if i % 2 == 0:
            harvests.append((code >> HARVEST_SHIFT).bit_count())
        state = state.apply_code(code)
    found = []
    if any(harvests):
        found.append("harvest")
    if state.staff == seat and start_staff != seat:
        found.append("staff")
    if any(n >= 2 for n in harvests):
        found.append("double-harvest")
    return tuple(found)


def _rarity(legal: int, optimal: int) -> float:
    return math.log2(max(1, legal) / max(1, optimal))


def mine(
    record: dict,
    seats: Iterable[int] | None = None,
    *,
    max_nodes: int = MAX_NODES,
    depths: Iterable[int] | None = None,
) -> Iterator[MinedPuzzle]:
    """The kept puzzles of a finished game's record for ``seats`` (all when None): for each
    seat, each of its last ``LAST_TURNS`` turns, K in ``depths`` (default 1..3); the
    position is the game's own."""
    depths = DEPTHS if depths is None else tuple(sorted(set(depths)))
    states = wg.replay(record)
    moves = [entry if isinstance(entry, str) else entry["move"] for entry in record["moves"]]
    wanted = set((0, 1) if seats is None else seats)
    for seat in sorted(wanted):
        turns = [
            ply
            for ply in range(len(moves))
            if states[ply].phase == wg.PLAY and states[ply].to_move == seat
        ][-LAST_TURNS:]
        for ply in turns:
            for k in depths:
                state = states[ply]
                end = min(len(moves), ply + 2 * k - 1)
                played = value(states[end], seat)
                try:
                    solution = solve(state, k, max_nodes=max_nodes)
                except SearchBudgetExceeded:
                    continue
                few = len(solution.first_moves) <= FEW_FIRST_MOVES
                beats_played = solution.optimum - played >= MIN_PLAYED_GAP
                beats_greedy = k == 1 or solution.optimum - solution.greedy >= MIN_GREEDY_GAP
                if not (few and beats_played and beats_greedy):
                    continue
                yield MinedPuzzle.proven(
                    GAME.name,
                    state,
                    seat,
                    k,
                    solution,
                    played=played,
                    themes=themes(state, solution.line),
                    ply=ply,
                )
