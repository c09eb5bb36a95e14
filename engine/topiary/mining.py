"""Topiary training puzzles mined from a finished game's record (docs/PUZZLES_SEED.md, 8).

For each mined seat and K = 1..4: the position where that seat is to move with K visitors
left, every tile revealed (a double-dummy ending, as the daily puzzle is). The other seats'
remaining visitors are placed first, in the order the game played them, each as it was
played where that move is still legal there, else as the full-information greedy move
(best own total, ties to the first in notation order); then the seat is put back to move.
The position is therefore a pure function of the record. ``engine.puzzles.solve`` proves the
optimum within a node budget; the ending is kept when the optimum beats what the seat played
by ``MIN_PLAYED_GAP``, the greedy line by ``puzzles.MIN_GREEDY_GAP`` (K >= 2; at K = 1
greedy is optimal by definition) and at most 2 x K first moves reach it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine import puzzles, topiary
from engine.errors import IllegalMove
from engine.mining import MinedPuzzle

GAME = topiary.GAME
#: The depths mined: the last 1, 2, 3 and 4 turns of a seat.
DEPTHS = (1, 2, 3, 4)
#: The optimum must beat what the seat played by at least this much.
MIN_PLAYED_GAP = 1
#: Search nodes a proof may take (``engine.puzzles.solve``'s ``max_nodes``), by K.
MAX_NODES = {1: 30_000, 2: 30_000, 3: 30_000, 4: 80_000}
#: The depths mined by table size: a 2- or 3-player ending with 4 turns left almost never
#: proves within the budget (the garden is still open), a 4-player one often does.
DEPTHS_BY_PLAYERS = {2: (1, 2, 3), 3: (1, 2, 3), 4: DEPTHS}

THEMES = ("type-bonus", "hand-points", "blocking", "take-and-plant", "place-only", "long")


def _greedy_move(state: topiary.State) -> str:
    """The full-information greedy move of the seat to move: best own total after it, ties
    to the first move in notation order."""
    seat = state.to_move
    best = None
    for move in state.legal_moves():
        total = state.apply(move).totals()[seat]
        if best is None or total > best[0]:
            best = (total, move)
    return best[1]


def _play_or_greedy(state: topiary.State, move: str) -> topiary.State:
    try:
        return state.apply(move)
    except IllegalMove:
        return state.apply(_greedy_move(state))


def ending(states: list, moves: list[str], ply: int) -> tuple[topiary.State, list[str]]:
    """The puzzle position of the ending from ``states[ply]`` (its mover is the solver) and
    the moves the solver played from there."""
    start = states[ply]
    seat = start.to_move
    own, others = [], []
    for j in range(ply, len(moves)):
        mover = states[j].to_move
        (own if mover == seat else others).append((mover, moves[j]))
    state = start
    for mover, move in others:
        state = _play_or_greedy(puzzles._with_mover(state, mover), move)
    state = puzzles._with_mover(state, seat)
    return state, [move for _, move in own]


def played_score(state: topiary.State, moves: list[str]) -> int:
    """The solver's total after its own recorded moves on the puzzle position, a move that
    is illegal there replaced by the greedy move."""
    seat = state.to_move
    for move in moves:
        state = _play_or_greedy(state, move)
    return state.totals()[seat]


def themes(state: topiary.State, line: Iterable[str]) -> tuple[str, ...]:
    """The theme slugs of a solution ``line`` from the puzzle position ``state``.

    * ``type-bonus``: the line raises the solver's type bonus;
    * ``hand-points``: it raises the solver's points from tiles in hand;
    * ``blocking``: it lowers another seat's total (a planted tile or a visitor hides what
      that seat's visitor saw);
    * ``take-and-plant``: a turn takes a tile and plants a hand tile in its place (the
      taken one is kept);
    * ``place-only``: no turn takes;
    * ``long``: K >= 3.
    """
    line = list(line)
    seat, k = puzzles.puzzle_seat(state)
    before = state.score()["scores"]
    final = state
    for move in line:
        final = final.apply(move)
    after = final.score()["scores"]
    found = []
    if after[seat]["bonus"] > before[seat]["bonus"]:
        found.append("type-bonus")
    if after[seat]["hand"] > before[seat]["hand"]:
        found.append("hand-points")
    if any(after[s]["total"] < before[s]["total"] for s in range(state.players) if s != seat):
        found.append("blocking")
    takes = [move for move in line if "=" in move]
    if any(not move.endswith("=*") for move in takes):
        found.append("take-and-plant")
    if not takes:
        found.append("place-only")
    if k >= 3:
        found.append("long")
    return tuple(found)


def is_kept(solution: puzzles.Solution, k: int, played: int | None) -> bool:
    """The acceptance rule of the module docstring."""
    if solution.optimal_first_moves > puzzles.FEW_FIRST_MOVES_PER_VISITOR * k:
        return False
    if played is not None and solution.optimum - played < MIN_PLAYED_GAP:
        return False
    return k == 1 or solution.optimum - solution.greedy >= puzzles.MIN_GREEDY_GAP


def depths_for(record: dict) -> tuple[int, ...]:
    """The depths mined in ``record`` (``DEPTHS_BY_PLAYERS``)."""
    return DEPTHS_BY_PLAYERS.get(len(record["players"]), DEPTHS)


def mine(
    record: dict,
    seats: Iterable[int] | None = None,
    *,
    max_nodes: int | dict | None = None,
    depths: Iterable[int] | None = None,
) -> Iterator[MinedPuzzle]:
    """The kept puzzles of a finished game's record, for ``seats`` (all when None), at
    ``depths`` (default ``depths_for(record)``); ``max_nodes`` (one number, or one per K)
    overrides ``MAX_NODES``."""
    budgets = max_nodes if isinstance(max_nodes, dict) else MAX_NODES
    if isinstance(max_nodes, int):
        budgets = dict.fromkeys(DEPTHS, max_nodes)
    depths = set(depths_for(record)) & (set(DEPTHS) if depths is None else set(depths))
    states = topiary.replay(record)
    if not states[-1].is_over:
        # Ended early (a resignation): the other seats' last visitors were never played,
        # so no ending of it is a pure function of the record.
        return
    moves = [entry if isinstance(entry, str) else entry["move"] for entry in record["moves"]]
    wanted = set(range(states[0].players) if seats is None else seats)
    for ply in range(len(moves)):
        start = states[ply]
        seat = start.to_move
        if start.phase != "play" or seat not in wanted or start.unplaced[seat] not in depths:
            continue
        k = start.unplaced[seat]
        state, own = ending(states, moves, ply)
        try:
            solution = puzzles.solve(state, max_nodes=budgets[k])
        except puzzles.SearchBudgetExceeded:
            continue
        played = played_score(state, own)
        if not is_kept(solution, k, played):
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
