"""The daily puzzle's seeded generator: a pure function of the date (docs/PUZZLES_SEED.md).

Candidates are dealt and played from the date's seed stream until one is good by PUZZLES.md's
test, each proven by the exact solver (``engine.puzzles.solver``).
"""

from __future__ import annotations

import datetime
import hashlib
import math
from dataclasses import dataclass

from engine import topiary
from engine.errors import NotationError
from engine.puzzles.solver import Solution, solve
from engine.rng import Rng
from engine.topiary.bots import expected_scores

#: Visitors left to the solver by weekday (Monday = 0): easy early in the week.
K_BY_WEEKDAY = (1, 1, 2, 2, 2, 3, 3)
#: Candidates the generator tries before settling for the best of them.
MAX_CANDIDATES = 24
#: A good puzzle has at most this many optimal first moves per visitor left ("few").
FEW_FIRST_MOVES_PER_VISITOR = 2
#: With K >= 2, the optimum must beat the greedy line by at least this much.
MIN_GREEDY_GAP = 2


@dataclass(frozen=True)
class Puzzle:
    """A daily puzzle: the position (all identities shown), its answer and its difficulty."""

    date: str
    seed: str
    candidate: int
    position: dict
    seat: int
    k: int
    solution: Solution

    @property
    def greedy_gap(self) -> int:
        """How far the greedy line falls short of the optimum."""
        return self.solution.optimum - self.solution.greedy

    @property
    def rarity(self) -> float:
        """log2 of legal first moves per optimal first move: how hard the first move is to find."""
        return math.log2(self.solution.legal_first_moves / self.solution.optimal_first_moves)

    @property
    def rating(self) -> int:
        """The puzzle's starting rating, from its measured difficulty (docs/PUZZLES_SEED.md)."""
        raw = 900 + 150 * (self.k - 1) + 100 * self.greedy_gap + 60 * self.rarity
        return int(min(2600, max(600, round(raw))))

    def to_json(self) -> dict:
        """The puzzle record as JSON (what ``python -m engine topiary daily DATE`` prints)."""
        sol = self.solution
        return {
            "date": self.date,
            "seed": self.seed,
            "candidate": self.candidate,
            "position": self.position,
            "seat": self.seat,
            "k": self.k,
            "optimum": sol.optimum,
            "line": list(sol.line),
            "optimal_first_moves": sol.optimal_first_moves,
            "legal_first_moves": sol.legal_first_moves,
            "greedy": sol.greedy,
            "difficulty": {"greedy_gap": self.greedy_gap, "rarity": round(self.rarity, 3)},
            "rating": self.rating,
        }


# --------------------------------------------------------------------------- the daily puzzle


def daily_seed(date: datetime.date | str) -> bytes:
    """The 32-byte seed of a date: SHA-256 of ``topiary-daily:`` + the ISO date."""
    return hashlib.sha256(f"topiary-daily:{_iso_date(date)}".encode()).digest()


def _iso_date(date: datetime.date | str) -> str:
    if isinstance(date, datetime.datetime):
        date = date.date()
    if isinstance(date, datetime.date):
        return date.isoformat()
    try:
        return datetime.date.fromisoformat(date).isoformat()
    except (TypeError, ValueError):
        raise NotationError(code="puzzle_date", date=date) from None


def candidate_position(rng: Rng, k: int) -> topiary.State:
    """One candidate position from the seed stream (docs/PUZZLES_SEED.md, steps 3-5).

    A 2-player game is dealt from ``rng.next_u64()`` and played by the greedy bot (its ties
    broken by ``rng``) until the seat to move has ``k`` visitors left; the other seat places
    the rest of its visitors; the position is then handed back to the first seat.
    """
    state = topiary.new_game(topiary.Options(players=2), rng.next_u64())
    while state.unplaced[state.to_move] > k:
        state = state.apply(_generator_move(state.view(state.to_move), rng))
    seat = state.to_move
    for other in range(state.players):
        while other != seat and state.unplaced[other]:
            state = _with_mover(state, other)
            state = state.apply(_generator_move(state.view(other), rng))
    return _with_mover(state, seat)


def _generator_move(view: topiary.View, rng: Rng) -> str:
    """The greedy bot's move as it was before turns with a take became two decisions (issue
    11): one whole move, the taken tile averaged over the unseen ones. The generator keeps it
    so that every date's puzzle stays the puzzle it always was."""
    values = expected_scores(view)
    legal = {code: values[code] for code in view.move_codes()}
    top = max(legal.values())
    return topiary.move_name(rng.choice(sorted(code for code, v in legal.items() if v == top)))


def _with_mover(state: topiary.State, seat: int) -> topiary.State:
    """The same position with ``seat`` to move (the puzzle breaks the turn order on purpose)."""
    data = state.to_json()
    data["to_move"] = seat
    return topiary.state_from_json(data)


def is_good(solution: Solution, k: int) -> bool:
    """PUZZLES.md's test: optimum beats greedy by 2 (K >= 2) and few optimal first moves."""
    if solution.optimal_first_moves > FEW_FIRST_MOVES_PER_VISITOR * k:
        return False
    return k == 1 or solution.optimum - solution.greedy >= MIN_GREEDY_GAP


def daily(date: datetime.date | str) -> Puzzle:
    """The puzzle of a date: a pure function of the date (see docs/PUZZLES_SEED.md)."""
    iso = _iso_date(date)
    seed = daily_seed(iso)
    k = K_BY_WEEKDAY[datetime.date.fromisoformat(iso).weekday()]
    stream = Rng(seed)
    tried = []
    for candidate in range(MAX_CANDIDATES):
        state = candidate_position(stream.fork(), k)
        puzzle = Puzzle(
            date=iso,
            seed=seed.hex(),
            candidate=candidate,
            position=state.to_json(),
            seat=state.to_move,
            k=k,
            solution=solve(state),
        )
        if is_good(puzzle.solution, k):
            return puzzle
        tried.append(puzzle)
    # No candidate passed: the one that comes closest (largest greedy gap, then fewest
    # optimal first moves, then the earliest) keeps the date's puzzle well defined.
    return max(
        tried,
        key=lambda p: (p.greedy_gap, -p.solution.optimal_first_moves, -p.candidate),
    )
