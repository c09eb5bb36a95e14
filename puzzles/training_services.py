"""Writes for puzzle training: rated attempts, and the Streak and Storm runs built on them.

Rating rule (as the daily puzzle's): a user's first attempt at a training puzzle (an
answer or a give-up, in any mode) is one rated game between the user and the puzzle:
both ratings move, the puzzle's by at most ``PUZZLE_MAX_CHANGE``. Later attempts are
practice and move nothing. The puzzle row is locked while an attempt is judged, and a
partial unique index allows one rated attempt per (user, puzzle), so a double submit
cannot count twice.

Runs: a Streak serves puzzles of rising difficulty until the first mistake; a Storm
serves them for ``settings.PUZZLE_STORM_SECONDS`` of the server's clock, each mistake
costing ``settings.PUZZLE_STORM_PENALTY_SECONDS``; an answer that reaches the server
after the deadline does not count and ends the run.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from puzzles import training_selectors as selectors
from puzzles.models import TrainingAttempt, TrainingPuzzle, TrainingRun
from puzzles.services import SubmissionRefused, attempt_rate
from puzzles.trainers import TRAINERS, training_grade
from ratings.models import PUZZLE
from ratings.selectors import rating_of

#: A puzzle's rating moves by at most this much for one attempt, so a few lucky or unlucky
#: solvers cannot throw a fresh puzzle far from its measured difficulty.
PUZZLE_MAX_CHANGE = 15.0


class RunRefused(ValueError):
    """An answer a run cannot take (over, not the run's puzzle, not the runner's), or one
    outside a run to a puzzle an open run holds; ``code`` names which for programs, as the
    API's refusals do: ``finished``, ``stale``, ``not_found``, ``not_allowed``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class RunState:
    """Where a run stands after an answer."""

    id: int
    mode: str
    score: int
    mistakes: int
    over: bool
    # Storm: the deadline on the server's clock.
    deadline: datetime.datetime | None
    # The run's next puzzle (None once over or when the pool ran dry).
    next_puzzle: int | None
    # Storm: the answer came after the deadline and was not judged.
    late: bool = False


@dataclass(frozen=True)
class TrainingVerdict:
    """The judgement of an answer, and what it changed."""

    score: int | None
    optimum: int
    solved: bool
    # The answer: set only once the solver has solved the puzzle or given up on it.
    line: list[str] | None
    rated: bool = False
    rating_before: float | None = None
    rating_after: float | None = None
    puzzle_rating_before: float | None = None
    puzzle_rating_after: float | None = None
    run: RunState | None = None
    # The daily puzzle's day streak (the verdicts share one shape): training never moves it.
    streak: None = None


def gradable_kinds() -> tuple[str, ...]:
    """The games whose training puzzles the site can judge (and so serves)."""
    return tuple(TRAINERS)


def training_attempt_submit(
    *, puzzle: TrainingPuzzle, user, submission: Any, run: TrainingRun | None = None
) -> TrainingVerdict:
    """Judge a complete line through the engine and keep it; rated if it is the first attempt.

    ``run``: the Streak or Storm run the answer belongs to (it must be the run's current
    puzzle; without one, the puzzle must not be an open run's current one).
    SubmissionRefused / RunRefused store and move nothing.
    """
    moves, score = training_grade(puzzle, submission)
    return _attempt(puzzle=puzzle, user=user, run=run, moves=moves, score=score)


def training_give_up(*, puzzle: TrainingPuzzle, user, run: TrainingRun | None = None):
    """Reveal one optimal line; a first attempt counts as a rated loss, in a run as a mistake."""
    return _attempt(puzzle=puzzle, user=user, run=run, moves=[], score=None)


def _attempt(*, puzzle, user, run, moves, score) -> TrainingVerdict:
    gave_up = score is None
    solved = not gave_up and score >= puzzle.optimum
    now = timezone.now()
    with transaction.atomic():
        if run is None:
            _refuse_if_in_open_run(user=user, puzzle=puzzle, now=now)
        locked_run = _locked_run(run, user=user, puzzle=puzzle) if run is not None else None
        if locked_run is not None and _late(locked_run, now):
            # Not judged: the run ends at its deadline, whatever the answer was.
            locked_run.ended_at = locked_run.deadline
            locked_run.current = None
            locked_run.save(update_fields=["ended_at", "current"])
            return TrainingVerdict(
                score=None,
                optimum=puzzle.optimum,
                solved=False,
                line=None,
                run=_run_state(locked_run, late=True),
            )
        locked = TrainingPuzzle.objects.select_for_update().get(pk=puzzle.pk)
        earlier = TrainingAttempt.objects.filter(user=user, puzzle=locked)
        attempt = TrainingAttempt(
            puzzle=locked,
            user=user,
            run=locked_run,
            moves=moves,
            score=score,
            solved=solved,
            gave_up=gave_up,
        )
        _rate_if_first(attempt, first=not earlier.exists())
        revealed = solved or gave_up or earlier.filter(solved=True).exists()
        attempt.save()
        if locked_run is not None:
            _run_advance(locked_run, solved=solved, now=now)
    return TrainingVerdict(
        score=score,
        optimum=locked.optimum,
        solved=solved,
        line=locked.line if revealed else None,
        rated=attempt.rated,
        rating_before=attempt.user_rating_before,
        rating_after=attempt.user_rating_after,
        puzzle_rating_before=attempt.puzzle_rating_before,
        puzzle_rating_after=attempt.puzzle_rating_after,
        run=_run_state(locked_run) if locked_run is not None else None,
    )


def _rate_if_first(attempt: TrainingAttempt, *, first: bool) -> None:
    """Play the rated game user vs puzzle for a first attempt (the puzzle row is locked)."""
    if first:
        attempt_rate(
            attempt, puzzle_key=f"training:{attempt.puzzle.pk}", most_change=PUZZLE_MAX_CHANGE
        )


# --------------------------------------------------------------------------- runs


def storm_length() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.PUZZLE_STORM_SECONDS)


def training_run_start(*, user, mode: str) -> TrainingRun:
    """Start a Streak or Storm run (ending any of the user's open runs of that mode) and serve
    its first puzzle. SubmissionRefused if the pool has nothing left for the user."""
    if mode not in TrainingRun.Mode.values:
        raise SubmissionRefused(_("Unknown training mode %(mode)s.") % {"mode": repr(mode)})
    now = timezone.now()
    with transaction.atomic():
        # Two starts at once (a double click) queue here: one open run per user and mode.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        TrainingRun.objects.filter(user=user, mode=mode, ended_at__isnull=True).update(
            ended_at=now, current=None
        )
        run = TrainingRun(user=user, mode=mode, started_at=now)
        if mode == TrainingRun.Mode.STORM:
            run.deadline = now + storm_length()
        run.current = _run_puzzle(run)
        if run.current is None:
            raise SubmissionRefused(_("There are no puzzles left for you to train on."))
        run.save()
    return run


def training_run_finish(*, run: TrainingRun) -> TrainingRun:
    """End a run whose time is up (a storm seen past its deadline); safe to call again."""
    with transaction.atomic():
        locked = TrainingRun.objects.select_for_update().get(pk=run.pk)
        if locked.ended_at is None and _late(locked, timezone.now()):
            locked.ended_at = locked.deadline
            locked.current = None
            locked.save(update_fields=["ended_at", "current"])
    return locked


def _locked_run(run: TrainingRun, *, user, puzzle: TrainingPuzzle) -> TrainingRun:
    locked = TrainingRun.objects.select_for_update().get(pk=run.pk)
    if locked.user_id != user.pk:
        raise RunRefused("not_found", _("This run is not yours."))
    if locked.ended_at is not None:
        raise RunRefused("finished", _("This run is over."))
    if locked.current_id != puzzle.pk:
        raise RunRefused("stale", _("This is not the run's current puzzle."))
    return locked


def _refuse_if_in_open_run(*, user, puzzle: TrainingPuzzle, now: datetime.datetime) -> None:
    """A run's current puzzle is answered in the run: a give-up outside it would show the
    line, then solved in the run (a free point on the boards)."""
    open_runs = TrainingRun.objects.filter(user=user, current=puzzle, ended_at__isnull=True)
    if open_runs.exclude(deadline__lt=now).exists():
        raise RunRefused("not_allowed", _("This puzzle is in your open run: answer it there."))


def _late(run: TrainingRun, now: datetime.datetime) -> bool:
    return run.deadline is not None and now > run.deadline


def _run_advance(run: TrainingRun, *, solved: bool, now: datetime.datetime) -> None:
    if solved:
        run.score += 1
    else:
        run.mistakes += 1
        if run.mode == TrainingRun.Mode.STORM:
            run.deadline -= datetime.timedelta(seconds=settings.PUZZLE_STORM_PENALTY_SECONDS)
    over = (run.mode == TrainingRun.Mode.STREAK and not solved) or _late(run, now)
    run.current = None if over else _run_puzzle(run)
    if over or run.current is None:
        run.ended_at = min(now, run.deadline) if run.deadline else now
    run.save(update_fields=["score", "mistakes", "deadline", "current", "ended_at"])


def _run_puzzle(run: TrainingRun) -> TrainingPuzzle | None:
    """The run's next puzzle: unseen, each one a step harder than the last."""
    rating = rating_of(user=run.user, kind=PUZZLE).value
    target = selectors.run_target(rating, solved=run.score, mode=run.mode)
    return selectors.training_puzzle_next(user=run.user, target=target, kinds=gradable_kinds())


def _run_state(run: TrainingRun, *, late: bool = False) -> RunState:
    return RunState(
        id=run.pk,
        mode=run.mode,
        score=run.score,
        mistakes=run.mistakes,
        over=run.ended_at is not None,
        deadline=run.deadline,
        next_puzzle=run.current_id,
        late=late,
    )
