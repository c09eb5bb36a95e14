"""Puzzle Streak and Puzzle Storm runs: start one, read it, answer its current puzzle.

Thin over ``puzzles.training_services`` (the pages' services): an answer names the puzzle it
is for, so a resent or late one is refused (409 ``stale``, ``finished``) and changes nothing.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router

from api.endpoints.puzzles import training_puzzle_json, training_puzzle_of, training_verdict_json
from api.endpoints.setup import ApiError, _require, token_auth
from api.models import Scope
from api.schemas import PLAY, RunGiveUpIn, RunIn, RunOut, RunSubmissionIn, RunVerdictOut, answers
from puzzles import training_services
from puzzles.models import TrainingRun
from puzzles.services import SubmissionRefused

router = Router()


def _run_json(run: TrainingRun, user) -> dict:
    puzzle = run.current
    return {
        "id": run.pk,
        "mode": run.mode,
        "score": run.score,
        "mistakes": run.mistakes,
        "over": run.ended_at is not None,
        "deadline": run.deadline.isoformat() if run.deadline else None,
        "seconds_left": run.seconds_left(timezone.now()),
        "puzzle": training_puzzle_json(puzzle, own=puzzle.source_user_id == user.pk)
        if puzzle is not None
        else None,
    }


def _own_run(request: HttpRequest, run_id: int):
    """The caller and their run ``run_id`` (another's is not found, as a missing one)."""
    user = _require(request, Scope.PUZZLE_WRITE)
    run = TrainingRun.objects.filter(pk=run_id, user=user).select_related("current").first()
    if run is None:
        raise ApiError("not_found", _("there is no run %(id)s of yours") % {"id": run_id})
    return user, run


def _after_answer(verdict, run: TrainingRun, user) -> dict:
    run.refresh_from_db()
    return training_verdict_json(verdict) | {
        "late": verdict.run.late,
        "run": _run_json(run, user),
    }


@router.post(
    "/puzzles/runs",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(RunOut, (400, 401, 403, 404, 429)),
)
def run_start(request: HttpRequest, body: RunIn):
    """Start a Puzzle Streak or Puzzle Storm run (``puzzle:write``), ending any open run of
    yours of that mode, with its first puzzle; 404 when no puzzle is left for you."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        run = training_services.training_run_start(user=user, mode=body.mode)
    except SubmissionRefused as refusal:
        # The mode is checked by the body's schema: what is left is an empty pool.
        raise ApiError("not_found", str(refusal)) from None
    return _run_json(run, user)


@router.get(
    "/puzzles/runs/{run_id}",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(RunOut, (401, 403, 404, 429)),
)
def run_read(request: HttpRequest, run_id: int):
    """One of your runs (``puzzle:write``): score, the storm's time left and the puzzle to
    answer now; a storm read past its deadline is over."""
    user, run = _own_run(request, run_id)
    if run.ended_at is None:
        run = training_services.training_run_finish(run=run)
    return _run_json(run, user)


@router.post(
    "/puzzles/runs/{run_id}/submit",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(RunVerdictOut, PLAY),
)
def run_submit(request: HttpRequest, run_id: int, body: RunSubmissionIn):
    """Answer the run's current puzzle ``puzzle`` with a complete line (``puzzle:write``): the
    training verdict (rated if it is your first answer to that puzzle) and the run after it.
    409 ``stale`` if ``puzzle`` is not the run's current one, ``finished`` once it is over."""
    user, run = _own_run(request, run_id)
    try:
        verdict = training_services.training_attempt_submit(
            puzzle=training_puzzle_of(body.puzzle),
            user=user,
            submission=body.model_dump(exclude={"puzzle"}),
            run=run,
        )
    except SubmissionRefused as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    except training_services.RunRefused as refusal:
        raise ApiError(refusal.code, str(refusal)) from None
    return _after_answer(verdict, run, user)


@router.post(
    "/puzzles/runs/{run_id}/give-up",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(RunVerdictOut, PLAY),
)
def run_give_up(request: HttpRequest, run_id: int, body: RunGiveUpIn):
    """Give up the run's current puzzle ``puzzle`` (``puzzle:write``): one optimal line, a
    mistake in the run (a streak ends), and the run after it; refused as ``submit``."""
    user, run = _own_run(request, run_id)
    try:
        verdict = training_services.training_give_up(
            puzzle=training_puzzle_of(body.puzzle), user=user, run=run
        )
    except training_services.RunRefused as refusal:
        raise ApiError(refusal.code, str(refusal)) from None
    return _after_answer(verdict, run, user)
