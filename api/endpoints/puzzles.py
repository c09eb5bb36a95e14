"""The daily puzzles: reading one, submitting a line, giving up."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router

from api.endpoints.setup import ApiError, _reader, _require, token_auth
from api.models import Scope
from api.schemas import ALWAYS, QUERY, PuzzleOut, PuzzleSubmissionIn, VerdictOut, answers
from puzzles import selectors as puzzle_selectors
from puzzles import services as puzzle_services

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
