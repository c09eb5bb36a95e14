"""Training puzzles for tests, made from the daily generator's proven positions.

``engine.puzzles.daily(date)`` gives a position with a proven optimum and line; a
training row built from it is a real puzzle the engine grades. Pools for selection tests
copy one proven position under many fingerprints and ratings.
"""

from __future__ import annotations

import functools
import hashlib
import json

from engine import puzzles as engine_puzzles
from engine import topiary
from puzzles.models import TrainingPuzzle

#: Dates whose daily puzzles are K = 1 (so every move is a whole line) and made in a fraction
#: of a second.
QUICK_DATES = ("2026-11-16", "2026-11-09", "2026-11-10", "2026-11-02", "2026-11-03")


@functools.cache
def _record(date: str) -> dict:
    record = engine_puzzles.daily(date).to_json()
    state = topiary.state_from_json(record["position"])
    record["optimal"] = [
        move
        for move in state.legal_moves()
        if engine_puzzles.grade(record["position"], [move]) == record["optimum"]
    ]
    return record


def _fields(date: str, *, rating: float | None, themes, tag: str) -> dict:
    record = _record(date)
    return {
        "kind": "topiary",
        "position": record["position"],
        "seat": record["seat"],
        "k": record["k"],
        "optimum": record["optimum"],
        "greedy": record["greedy"],
        "line": record["line"],
        "optimal_first_moves": record["optimal"],
        "legal_first_moves": record["legal_first_moves"],
        "nodes": 0,
        "themes": list(themes),
        "difficulty": record["difficulty"],
        "rating": float(record["rating"] if rating is None else rating),
        "origin": TrainingPuzzle.Origin.SELF_PLAY,
        "seed": f"test:{date}",
        "fingerprint": hashlib.sha256(f"{date}:{tag}".encode()).hexdigest(),
    }


def training_puzzle(
    date: str = QUICK_DATES[0], *, rating=None, themes=("place-only",), tag="", **extra
) -> TrainingPuzzle:
    """One training puzzle from ``date``'s daily position (``tag`` makes copies distinct)."""
    fields = _fields(date, rating=rating, themes=themes, tag=tag) | extra
    return TrainingPuzzle.objects.create(**fields)


def training_pool(ratings, *, date: str = QUICK_DATES[0], themes=("place-only",)) -> list:
    """Copies of one proven position at each of ``ratings`` (bulk, for selection tests)."""
    return TrainingPuzzle.objects.bulk_create(
        TrainingPuzzle(**_fields(date, rating=r, themes=themes, tag=f"pool{i}"))
        for i, r in enumerate(ratings)
    )


def board_data(response) -> dict:
    """The puzzle board's data (``#puzzle-data``) of a page response."""
    html = response.content.decode()
    start = html.index('<script id="puzzle-data" type="application/json">') + 49
    return json.loads(html[start : html.index("</script>", start)])


def solving_line(puzzle: TrainingPuzzle) -> list[str]:
    return list(puzzle.line)


def failing_line(puzzle: TrainingPuzzle) -> list[str]:
    """A legal line of K = 1 that falls short of the optimum."""
    state = topiary.state_from_json(puzzle.position)
    for move in state.legal_moves():
        if engine_puzzles.grade(puzzle.position, [move]) < puzzle.optimum:
            return [move]
    raise AssertionError("every move is optimal")


#: Wizards' Garden positions (rank 4 first) with one winning first planting, and how to make
#: their puzzles: a harvest of white (K = 1) and a harvest of black that takes the staff,
#: then a planting against the opponent's best reply (K = 2).
GARDEN_POSITIONS = {
    "harvest": ("WWB.", "...B", "....", "...."),
    "staff": ("BBW.", "..W.", "....", "...."),
}


def garden_puzzle(name: str = "harvest", *, k: int = 1, rating=None, to_move: int = 0):
    """A Wizards' Garden training puzzle proven by the engine's solver on one of
    ``GARDEN_POSITIONS`` and stored through the service that adds mined puzzles."""
    from engine import wizards_garden as wg
    from engine.mining import MinedPuzzle
    from engine.wizards_garden import puzzles as garden_puzzles
    from engine.wizards_garden.positions import wizards_garden_position
    from puzzles.services import training_puzzle_add

    position = wizards_garden_position(*GARDEN_POSITIONS[name], to_move=to_move)
    state = wg.state_from_json(position)
    solution = garden_puzzles.solve(state, k)
    mined = MinedPuzzle.proven(
        "wizards_garden",
        state,
        to_move,
        k,
        solution,
        played=None,
        themes=garden_puzzles.themes(state, solution.line),
        ply=None,
    )
    row = training_puzzle_add(mined, origin=TrainingPuzzle.Origin.SELF_PLAY, seed=f"test:{name}")
    if rating is not None:
        row.rating = float(rating)
        row.save(update_fields=["rating"])
    return row


def garden_failing_move(puzzle: TrainingPuzzle) -> str:
    """A legal first planting that is not optimal."""
    from engine import wizards_garden as wg

    state = wg.state_from_json(puzzle.position)
    return next(m for m in state.legal_moves() if m not in puzzle.optimal_first_moves)
