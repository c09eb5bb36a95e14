"""How each game's training puzzle is played on the server, one step at a time, and graded.

A Topiary puzzle is the solver's K turns alone (every other visitor is placed already), so
the position after some moves is the moves replayed. A Wizards' Garden puzzle is K plantings
with the opponent replying best in between: the server plays each reply
(``engine.wizards_garden.puzzles.reply``) as the solver's plantings arrive, so the page and
an API client send the solver's plantings only and learn each reply from the answer to
``play/``. Either way the stored line (the answer) never takes part: a reply is the
engine's answer to the solver's own planting, not a piece of the optimal line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import puzzles as topiary_puzzles
from engine import wizards_garden as wg
from engine.errors import EngineError, IllegalMove
from engine.wizards_garden import puzzles as garden_puzzles
from games import engine_text
from puzzles import selectors as daily_selectors
from puzzles.selectors import Progress
from puzzles.services import SubmissionRefused, checked_moves


@dataclass(frozen=True)
class Trainer:
    """One game's training: the position after the solver's moves so far, and the grade of
    a complete answer (both take the puzzle row and the solver's moves, already checked)."""

    progress: Callable[[object, list[str]], Progress]
    grade: Callable[[object, list[str]], int]
    # The solver's own moves of a stored line (what a submission of it holds).
    answer: Callable[[list[str]], list[str]]
    # What the solver is asked, for the page's lead (HTML, escaped).
    brief: Callable[[object], str]
    # Whether a complete answer may have fewer than K moves (the game can end before).
    may_end_early: bool = False


def _topiary_brief(puzzle) -> str:
    who = ngettext(
        "You play seat %(seat)s and have the last %(k)s visitor of the game.",
        "You play seat %(seat)s and have the last %(k)s visitors of the game.",
        puzzle.k,
    )
    goal = ngettext(
        "Place it for the highest final score: the best possible is <strong>%(optimum)s</strong>.",
        "Place them for the highest final score: the best possible is "
        "<strong>%(optimum)s</strong>.",
        puzzle.k,
    )
    values = {"seat": puzzle.seat + 1, "k": puzzle.k, "optimum": puzzle.optimum}
    return format_html("{} {}", who % values, mark_safe(goal % values))


def _garden_brief(puzzle) -> str:
    who = ngettext(
        "You are player %(seat)s: plant %(k)s seed.",
        "You are player %(seat)s: plant %(k)s seeds; your opponent replies as well as "
        "possible after each one but the last.",
        puzzle.k,
    )
    goal = _(
        "Your result counts 2 for each flower you have more than your opponent and 1 for "
        "holding the Wizard's Staff (-1 if your opponent holds it): the best possible is "
        "<strong>%(optimum)s</strong>."
    )
    values = {"seat": puzzle.seat + 1, "k": puzzle.k, "optimum": puzzle.optimum}
    return format_html("{} {}", who % values, mark_safe(goal % values))


def _topiary_progress(puzzle, moves: list[str]) -> Progress:
    return daily_selectors.puzzle_progress(puzzle, {"seat": puzzle.seat, "moves": moves})


#: How long a reply stays cached (a solver's session on one puzzle, with room to spare).
REPLY_CACHE_SECONDS = 3600


def _garden_reply(puzzle, moves: list[str]) -> str | None:
    """The engine's reply after the solver's ``moves``, cached: each step asks again for the
    replies before it, and each ``reply`` call searches up to 2K - 2 plies (0.15 s at the
    median, 0.5 s at worst for K = 3 on the committed pool), so step n costs one search, not
    n. The reply is a pure function of the puzzle and the moves: a stale entry cannot be."""
    digest = hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:32]
    key = f"puzzles:garden-reply:{puzzle.fingerprint}:{digest}"
    cached = cache.get(key)
    if cached is not None:
        return cached or None
    answer = garden_puzzles.reply(puzzle.position, puzzle.k, moves)
    cache.set(key, answer or "", REPLY_CACHE_SECONDS)
    return answer


def _garden_progress(puzzle, moves: list[str]) -> Progress:
    """Replay the solver's plantings with the engine's best reply after each (but the last
    when all K are made or the game is over)."""
    state = wg.state_from_json(puzzle.position)
    replies: list[str] = []
    for done in range(1, len(moves) + 1):
        if state.is_over:
            raise IllegalMove(code="puzzle_moves_count", needed=done - 1, count=len(moves))
        state = state.apply(moves[done - 1], puzzle.seat)
        answer = _garden_reply(puzzle, moves[:done])
        if answer is not None:
            replies.append(answer)
            state = state.apply(answer)
    left = 0 if state.is_over else puzzle.k - len(moves)
    return Progress(
        position=state.to_json(),
        legal_moves=state.legal_moves() if left else [],
        left=left,
        sight_lines=[],
        replies=replies,
    )


TRAINERS: dict[str, Trainer] = {
    "topiary": Trainer(
        progress=_topiary_progress,
        grade=lambda puzzle, moves: topiary_puzzles.grade(puzzle.position, moves),
        answer=list,
        brief=_topiary_brief,
    ),
    "wizards_garden": Trainer(
        progress=_garden_progress,
        grade=lambda puzzle, moves: garden_puzzles.grade(puzzle.position, puzzle.k, moves),
        # The stored line alternates the solver's plantings and the opponent's replies.
        answer=lambda line: list(line[::2]),
        brief=_garden_brief,
        may_end_early=True,
    ),
}


def trainer_of(puzzle) -> Trainer:
    """The puzzle's game's trainer; SubmissionRefused for a game training cannot play."""
    trainer = TRAINERS.get(puzzle.kind)
    if trainer is None:
        raise SubmissionRefused(_("Puzzles of this game cannot be answered yet."))
    return trainer


def training_progress(puzzle, submission) -> Progress:
    """The position after a partial answer ``{"seat", "moves"}`` (SubmissionRefused if it is
    not legal), with the opponent's replies where the game has them."""
    trainer = trainer_of(puzzle)
    moves = checked_moves(puzzle, submission, complete=False)
    try:
        return trainer.progress(puzzle, moves)
    except EngineError as error:
        raise SubmissionRefused(engine_text.error_message(error)) from error


def training_grade(puzzle, submission) -> tuple[list[str], int]:
    """The solver's moves of a complete answer and the score they reach (SubmissionRefused
    if they are not a complete legal answer)."""
    trainer = trainer_of(puzzle)
    moves = checked_moves(puzzle, submission, complete=not trainer.may_end_early)
    try:
        return moves, trainer.grade(puzzle, moves)
    except EngineError as error:
        raise SubmissionRefused(engine_text.error_message(error)) from error
