"""The daily puzzle's pages and the JSON endpoints its board script talks to.

Endpoints (POST, JSON body ``{"seat": <the solver's seat>, "moves": ["c5:S c4=*", ...]}``):

- ``/puzzles/<date>/play/``: the position after up to K moves and the legal moves there
  (``{"position", "legal_moves", "left", "sight_lines"}``); the board asks after every move, so the
  legal moves always come from the engine.
- ``/puzzles/<date>/submit/``: exactly K moves, replayed and scored by the engine:
  ``{"result": "Solved" | "41 / 45", "solved", "score", "optimum", "rated", "streak"}``
  plus ``rating`` for a rated attempt and ``line`` once the solver may see it.
- ``/puzzles/<date>/give-up/`` (empty body): the same shape with ``line``.

A refusal is HTTP 400 ``{"error": "<why>"}`` and changes nothing.
"""

from __future__ import annotations

import datetime
import json

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from puzzles import selectors, services
from puzzles.models import DailyPuzzle
from ratings import elo
from ratings.models import PUZZLE
from ratings.selectors import TREND_DAYS, leaderboard, leaderboard_rank, rating_of

ARCHIVE_PAGE_SIZE = 30


def _puzzle_or_404(date: datetime.date) -> DailyPuzzle:
    if not selectors.puzzle_date_playable(date, today=timezone.localdate()):
        raise Http404("No daily puzzle for that date")
    return services.daily_puzzle_get_or_create(date=date)


def puzzle_today(request: HttpRequest) -> HttpResponse:
    """Today's puzzle."""
    return _puzzle_response(request, timezone.localdate())


def puzzle_page(request: HttpRequest, date: datetime.date) -> HttpResponse:
    """The puzzle of a date (today's or one from the archive)."""
    return _puzzle_response(request, date)


def _puzzle_response(request: HttpRequest, date: datetime.date) -> HttpResponse:
    puzzle = _puzzle_or_404(date)
    today = timezone.localdate()
    attempts = selectors.attempts_of(puzzle=puzzle, user=request.user)
    revealed = selectors.line_revealed(attempts)
    start = selectors.puzzle_progress(puzzle, {"seat": puzzle.seat, "moves": []})
    board = {
        "date": date.isoformat(),
        "is_today": date == today,
        **selectors.board_data(puzzle, start, revealed=revealed),
        "signed_in": request.user.is_authenticated,
        "urls": {
            name: reverse(f"puzzles:{name}", args=[date]) for name in ("play", "submit", "give_up")
        },
    }
    context = {
        "puzzle": puzzle,
        "is_today": date == today,
        "board": board,
        "attempts": attempts,
        "result": selectors.best_result(attempts),
        "revealed": revealed,
        "rating": None,
        "streak": None,
    }
    if request.user.is_authenticated:
        context["rating"] = rating_of(user=request.user, kind=PUZZLE)
        context["streak"] = selectors.streak_of(request.user, today=today)[0]
    return render(request, "puzzles/puzzle.html", context)


def _json_body(request: HttpRequest):
    try:
        return json.loads(request.body.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise services.SubmissionRefused(
            _("The request body is not JSON: %(error)s") % {"error": error}
        ) from error


def _refused(error: services.SubmissionRefused) -> JsonResponse:
    return JsonResponse({"error": str(error)}, status=400)


@require_POST
def puzzle_play(request: HttpRequest, date: datetime.date) -> JsonResponse:
    """The position after the solver's moves so far and the legal moves there."""
    puzzle = _puzzle_or_404(date)
    try:
        progress = selectors.puzzle_progress(puzzle, _json_body(request))
    except services.SubmissionRefused as error:
        return _refused(error)
    return JsonResponse(
        {
            "position": progress.position,
            "legal_moves": progress.legal_moves,
            "left": progress.left,
            "sight_lines": progress.sight_lines,
        }
    )


@require_POST
def puzzle_submit(request: HttpRequest, date: datetime.date) -> JsonResponse:
    """Judge a complete line: solved, or the score against the optimum."""
    puzzle = _puzzle_or_404(date)
    try:
        verdict = services.puzzle_attempt_submit(
            puzzle=puzzle, user=request.user, submission=_json_body(request)
        )
    except services.SubmissionRefused as error:
        return _refused(error)
    return JsonResponse(_verdict_json(verdict, request.user))


@require_POST
def puzzle_give_up(request: HttpRequest, date: datetime.date) -> JsonResponse:
    """Give up and see one optimal line."""
    verdict = services.puzzle_give_up(puzzle=_puzzle_or_404(date), user=request.user)
    return JsonResponse(_verdict_json(verdict, request.user))


def _verdict_json(verdict: services.Verdict, user) -> dict:
    if verdict.solved:
        result = _("Solved")
    elif verdict.score is None:
        result = _("Gave up")
    else:
        result = f"{verdict.score} / {verdict.optimum}"
    data = {
        "result": result,
        "solved": verdict.solved,
        "score": verdict.score,
        "optimum": verdict.optimum,
        "rated": verdict.rated,
        "streak": verdict.streak,
    }
    if verdict.rated:
        data["rating"] = {
            "before": round(verdict.rating_before),
            "after": round(verdict.rating_after),
            "display": rating_of(user=user, kind=PUZZLE).display,
        }
    if verdict.line is not None:
        data["line"] = verdict.line
    return data


def archive(request: HttpRequest) -> HttpResponse:
    """Every past daily puzzle, newest first, with the viewer's result."""
    pages = Paginator(selectors.archive_dates(today=timezone.localdate()), ARCHIVE_PAGE_SIZE)
    page = pages.get_page(request.GET.get("page"))
    entries = selectors.archive_entries(list(page.object_list), user=request.user)
    return render(request, "puzzles/archive.html", {"page": page, "entries": entries})


@require_GET
def puzzle_about(request: HttpRequest) -> HttpResponse:
    """How the daily puzzle is made and how anyone can check it, written for players."""
    return render(request, "puzzles/about.html")


def puzzle_leaderboard(request: HttpRequest) -> HttpResponse:
    """The puzzle boards: by puzzle rating and by current solve streak."""
    today = timezone.localdate()
    context = {
        "ratings": list(leaderboard(kind=PUZZLE)[: selectors.LEADERBOARD_SIZE]),
        "streaks": selectors.streak_leaders(today=today),
        "trend_days": TREND_DAYS,
        "provisional_games": elo.PROVISIONAL_GAMES,
    }
    if request.user.is_authenticated:
        rating = rating_of(user=request.user, kind=PUZZLE)
        context["my_rating"] = rating
        context["my_rating_rank"] = leaderboard_rank(rating=rating)
        context["my_streak"] = selectors.streak_of(request.user, today=today)[0]
        context["my_streak_rank"] = selectors.streak_rank(user=request.user, today=today)
    return render(request, "puzzles/leaderboard.html", context)
