"""The daily "best placement" puzzle of PUZZLES.md: exact solver, seeded generator, grading.

    from engine import puzzles
    puzzle = puzzles.daily("2026-11-22")      # the same puzzle on every machine, forever
    puzzle.to_json()["optimum"]
    puzzles.solve(state).to_json()            # {"optimum", "line", "optimal_first_moves", "greedy"}
    puzzles.grade(puzzle.position, moves)     # the solver's final score for a submission

Two concerns, one module each:

- ``solver``: the exact solver (branch and bound over take sequences; how it stays exact
  and fast is in its docstring), the greedy line, and grading a submitted line;
- ``generator``: the daily puzzle, a pure function of the date (docs/PUZZLES_SEED.md).

Callers use the names below (``from engine import puzzles``; ``puzzles.solve``).
"""

from __future__ import annotations

from engine.puzzles.generator import (
    FEW_FIRST_MOVES_PER_VISITOR,
    K_BY_WEEKDAY,
    MAX_CANDIDATES,
    MIN_GREEDY_GAP,
    Puzzle,
    candidate_position,
    daily,
    daily_seed,
    is_good,
)

# The generator's turn-order break, which the mining of played games shares.
from engine.puzzles.generator import _with_mover as _with_mover
from engine.puzzles.solver import (
    GAME,
    LINE_CONTENTS,
    SearchBudgetExceeded,
    Solution,
    grade,
    greedy_score,
    puzzle_seat,
    solve,
)

__all__ = [
    "FEW_FIRST_MOVES_PER_VISITOR",
    "GAME",
    "K_BY_WEEKDAY",
    "LINE_CONTENTS",
    "MAX_CANDIDATES",
    "MIN_GREEDY_GAP",
    "Puzzle",
    "SearchBudgetExceeded",
    "Solution",
    "candidate_position",
    "daily",
    "daily_seed",
    "grade",
    "greedy_score",
    "is_good",
    "puzzle_seat",
    "solve",
]
