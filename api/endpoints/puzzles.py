"""The daily puzzles: reading one, submitting a line, giving up."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router

from api.endpoints.setup import ApiError, _reader, _require, token_auth
from api.models import Scope
from api.schemas import (
    ALWAYS,
    PLAY,
    QUERY,
    PuzzleOut,
    PuzzleSubmissionIn,
    TrainingProgressOut,
    TrainingPuzzleOut,
    TrainingVerdictOut,
    VerdictOut,
    answers,
)
from puzzles import selectors as puzzle_selectors
from puzzles import services as puzzle_services
from puzzles import training_selectors, training_services
from puzzles.models import TrainingPuzzle
from puzzles.trainers import training_progress
from ratings.models import PUZZLE
from ratings.selectors import rating_of

router = Router()


def _puzzle_json(puzzle, user) -> dict:
    attempts = puzzle_selectors.attempts_of(puzzle=puzzle, user=user) if user else []
    revealed = puzzle_selectors.line_revealed(attempts)
    start = puzzle_selectors.puzzle_progress(puzzle, {"seat": puzzle.seat, "moves": []})
    return {
        "date": puzzle.date.isoformat(),
        "seat": puzzle.seat,
        "k": puzzle.k,
        "optimum": puzzle.optimum,
        "rating": round(puzzle.rating, 1),
        "position": start.position,
        "legal_moves": start.legal_moves,
        "solved": any(attempt.solved for attempt in attempts),
        "line": puzzle.line if revealed else None,
    }


@router.get("/puzzles/daily", tags=["puzzles"], response=answers(PuzzleOut, ALWAYS))
def puzzle_daily(request: HttpRequest):
    """Today's puzzle; ``line`` (the answer) only once the caller solved it or gave up."""
    puzzle = puzzle_services.daily_puzzle_get_or_create(date=timezone.localdate())
    return _puzzle_json(puzzle, _reader(request))


# Before "/puzzles/{date}", which would take "next" for a date.
@router.get(
    "/puzzles/next",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(TrainingPuzzleOut, (400, 401, 403, 404, 429)),
)
def training_next(
    request: HttpRequest, difficulty: str = "normal", theme: str = "", kind: str = ""
):
    """The caller's next training puzzle (``puzzle:write``): one they have never answered, near
    their puzzle rating (``difficulty`` easier -300, normal, harder +300), optionally of one
    ``theme`` or game ``kind``; puzzles from the caller's own games come first. No ``line``:
    answer it with ``POST /puzzles/training/{id}/submit`` (the first answer is rated)."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        choice = training_selectors.stream_choice(
            difficulty=difficulty,
            theme=theme,
            kind=kind,
            kinds=training_services.gradable_kinds(),
        )
    except ValueError as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    rating = rating_of(user=user, kind=PUZZLE).value
    puzzle, own = training_selectors.stream_next(user=user, rating=rating, choice=choice)
    if puzzle is None:
        raise ApiError("not_found", _("no puzzle left for you with these options"))
    return training_puzzle_json(puzzle, own=own)


def training_puzzle_json(puzzle: TrainingPuzzle, *, own: bool) -> dict:
    """A training puzzle to answer (``TrainingPuzzleOut``): never its line."""
    start = training_progress(puzzle, {"seat": puzzle.seat, "moves": []})
    return {
        "id": puzzle.pk,
        "kind": puzzle.kind,
        "seat": puzzle.seat,
        "k": puzzle.k,
        "optimum": puzzle.optimum,
        "rating": round(puzzle.rating, 1),
        "themes": puzzle.themes,
        "own": own,
        "source": training_selectors.source_text(puzzle),
        "position": start.position,
        "legal_moves": start.legal_moves,
        "line": None,
    }


def training_puzzle_of(puzzle_id: int) -> TrainingPuzzle:
    puzzle = TrainingPuzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise ApiError("not_found", _("no training puzzle %(id)s") % {"id": puzzle_id})
    return puzzle


def training_verdict_json(verdict) -> dict:
    return _verdict_json(verdict) | {
        "puzzle_rating_before": verdict.puzzle_rating_before,
        "puzzle_rating_after": verdict.puzzle_rating_after,
    }


@router.post(
    "/puzzles/training/{puzzle_id}/play",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(TrainingProgressOut, (400, 401, 403, 404, 429)),
)
def training_play(request: HttpRequest, puzzle_id: int, body: PuzzleSubmissionIn):
    """The position after the solver's moves so far (``puzzle:write``), with the opponent's
    best reply after each planting in Wizards' Garden, where the opponent moves between them;
    nothing is stored and the answer is not revealed."""
    _require(request, Scope.PUZZLE_WRITE)
    try:
        progress = training_progress(training_puzzle_of(puzzle_id), body.model_dump())
    except puzzle_services.SubmissionRefused as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    return {
        "position": progress.position,
        "legal_moves": progress.legal_moves,
        "left": progress.left,
        "replies": progress.replies,
    }


@router.post(
    "/puzzles/training/{puzzle_id}/submit",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(TrainingVerdictOut, PLAY),
)
def training_submit(request: HttpRequest, puzzle_id: int, body: PuzzleSubmissionIn):
    """Answer a training puzzle with a complete line (``puzzle:write``): the first answer is a
    rated game against the puzzle (both ratings move), later ones are practice. 409
    ``not_allowed`` while it is the current puzzle of an open run of yours."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        verdict = training_services.training_attempt_submit(
            puzzle=training_puzzle_of(puzzle_id), user=user, submission=body.model_dump()
        )
    except puzzle_services.SubmissionRefused as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    except training_services.RunRefused as refusal:
        raise ApiError(refusal.code, str(refusal)) from None
    return training_verdict_json(verdict)


@router.post(
    "/puzzles/training/{puzzle_id}/give-up",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(TrainingVerdictOut, (401, 403, 404, 409, 429)),
)
def training_give_up(request: HttpRequest, puzzle_id: int):
    """Give up a training puzzle and get one optimal line (``puzzle:write``); a first attempt
    counts as a rated loss. 409 ``not_allowed`` while it is the current puzzle of an open run
    of yours (the line would be seen before the run's answer)."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        verdict = training_services.training_give_up(
            puzzle=training_puzzle_of(puzzle_id), user=user
        )
    except training_services.RunRefused as refusal:
        raise ApiError(refusal.code, str(refusal)) from None
    return training_verdict_json(verdict)


@router.get("/puzzles/{date}", tags=["puzzles"], response=answers(PuzzleOut, QUERY))
def puzzle_of_date(request: HttpRequest, date: datetime.date):
    """The puzzle of an archive date (none in the future)."""
    return _puzzle_json(_puzzle_playable(date), _reader(request))


def _puzzle_playable(date: datetime.date):
    if not puzzle_selectors.puzzle_date_playable(date, today=timezone.localdate()):
        raise ApiError("not_found", _("no puzzle for %(date)s") % {"date": date.isoformat()})
    return puzzle_services.daily_puzzle_get_or_create(date=date)


def _verdict_json(verdict) -> dict:
    return {
        "score": verdict.score,
        "optimum": verdict.optimum,
        "solved": verdict.solved,
        "line": verdict.line,
        "rated": verdict.rated,
        "rating_before": verdict.rating_before,
        "rating_after": verdict.rating_after,
    }


@router.post(
    "/puzzles/{date}/submit",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(VerdictOut, (400, 401, 403, 404, 429)),
)
def puzzle_submit(request: HttpRequest, date: datetime.date, body: PuzzleSubmissionIn):
    """Submit a complete line (``{"seat", "moves"}``, K moves) for a puzzle (``puzzle:write``);
    the first attempt at a puzzle is rated, as on the page."""
    user = _require(request, Scope.PUZZLE_WRITE)
    try:
        verdict = puzzle_services.puzzle_attempt_submit(
            puzzle=_puzzle_playable(date), user=user, submission=body.model_dump()
        )
    except puzzle_services.SubmissionRefused as refusal:
        raise ApiError("bad_request", str(refusal)) from None
    return _verdict_json(verdict)


@router.post(
    "/puzzles/{date}/give-up",
    auth=token_auth,
    tags=["puzzles"],
    response=answers(VerdictOut, (400, 401, 403, 404, 429)),
)
def puzzle_give_up(request: HttpRequest, date: datetime.date):
    """Give up and get one optimal line (``puzzle:write``); a first attempt counts as lost."""
    user = _require(request, Scope.PUZZLE_WRITE)
    return _verdict_json(puzzle_services.puzzle_give_up(puzzle=_puzzle_playable(date), user=user))
