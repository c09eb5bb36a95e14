"""Puzzle training pages (stream, Streak, Storm, dashboard) and the JSON endpoints of their board.

The board script is the daily puzzle's (static/puzzles/puzzle.js) with the same endpoints'
shapes, under ``/puzzles/train/<id>/``: ``play/``, ``submit/`` and ``give-up/``. An answer
in a run carries ``?run=<id>``; its verdict adds ``run`` (score, over, late, deadline) and
``next_url``. A refusal is HTTP 400 ``{"error": "<why>"}`` and changes nothing.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import game_kind_choices
from puzzles import selectors as daily_selectors
from puzzles import training_selectors as selectors
from puzzles import training_services as services
from puzzles.models import TrainingPuzzle, TrainingRun
from puzzles.services import SubmissionRefused
from puzzles.trainers import trainer_of, training_progress
from puzzles.views import _json_body, _refused, _verdict_json
from ratings.models import PUZZLE
from ratings.selectors import rating_of

STREAM_OPTIONS = ("difficulty", "theme", "kind")


def _stream_query(request: HttpRequest) -> str:
    kept = {name: request.GET[name] for name in STREAM_OPTIONS if request.GET.get(name)}
    return f"?{urlencode(kept)}" if kept else ""


def _board(puzzle: TrainingPuzzle, *, revealed: bool, run: TrainingRun | None, next_url: str):
    start = training_progress(puzzle, {"seat": puzzle.seat, "moves": []})
    suffix = f"?run={run.pk}" if run else ""
    board = {
        "kind": puzzle.kind,
        **daily_selectors.board_data(puzzle, start, revealed=revealed),
        "signed_in": True,
        "next_url": next_url,
        "urls": {
            name: reverse(f"puzzles:train_{name}", args=[puzzle.pk]) + suffix
            for name in ("play", "submit", "give_up")
        },
    }
    if run is not None:
        board["run"] = _run_json(run)
    return board


def _page(request, puzzle: TrainingPuzzle, *, run=None, next_url: str, own=False):
    attempts = selectors.attempts_of(puzzle=puzzle, user=request.user)
    revealed = daily_selectors.line_revealed(attempts)
    daily = daily_selectors.daily_puzzle_of(timezone.localdate())
    context = {
        "puzzle": puzzle,
        "board": _board(puzzle, revealed=revealed, run=run, next_url=next_url),
        "attempts": attempts,
        "result": daily_selectors.best_result(attempts) if attempts else "",
        "revealed": revealed,
        # A theme hints at the answer: named once the puzzle is answered.
        "theme_names": [selectors.theme_name(slug) for slug in puzzle.themes],
        "rating": rating_of(user=request.user, kind=PUZZLE),
        "own": own,
        "source": selectors.source_text(puzzle),
        "run": run,
        "difficulty": request.GET.get("difficulty", "normal"),
        "difficulties": selectors.DIFFICULTY_OFFSETS,
        "theme": request.GET.get("theme", ""),
        "kind": request.GET.get("kind", ""),
        "kinds": [(n, t) for n, t in game_kind_choices() if n in services.gradable_kinds()],
        "brief": trainer_of(puzzle).brief(puzzle),
        "themes": selectors.theme_choices(services.gradable_kinds()),
        "daily": daily,
        "daily_solved": bool(daily)
        and any(a.solved for a in daily_selectors.attempts_of(puzzle=daily, user=request.user)),
    }
    return render(request, "puzzles/training.html", context)


@login_required
def training_stream(request: HttpRequest) -> HttpResponse:
    """The next puzzle of the stream: unseen, near the player's rating (and chosen difficulty)."""
    try:
        choice = selectors.stream_choice(
            difficulty=request.GET.get("difficulty"),
            theme=request.GET.get("theme"),
            kind=request.GET.get("kind"),
            kinds=services.gradable_kinds(),
        )
    except ValueError as error:
        return render(request, "puzzles/training_empty.html", {"error": str(error)}, status=400)
    rating = rating_of(user=request.user, kind=PUZZLE).value
    puzzle, own = selectors.stream_next(user=request.user, rating=rating, choice=choice)
    if puzzle is None:
        return render(request, "puzzles/training_empty.html", {"error": ""})
    next_url = reverse("puzzles:train") + _stream_query(request)
    return _page(request, puzzle, next_url=next_url, own=own)


@login_required
def training_puzzle(request: HttpRequest, pk: int) -> HttpResponse:
    """One training puzzle (to replay a failed one from the dashboard)."""
    return _page(request, _puzzle_of(pk), next_url=reverse("puzzles:dashboard"))


def _puzzle_of(pk: int) -> TrainingPuzzle:
    return get_object_or_404(TrainingPuzzle, pk=pk, kind__in=services.gradable_kinds())


def _run_of(request) -> TrainingRun | None:
    run_id = request.GET.get("run")
    if not run_id:
        return None
    if not run_id.isdigit():
        raise Http404("No such run")
    return get_object_or_404(TrainingRun, pk=int(run_id), user=request.user)


@login_required
@require_POST
def training_play(request: HttpRequest, pk: int) -> JsonResponse:
    """The position after the solver's moves so far (and the opponent's replies between them,
    where the game has any) and the legal moves there."""
    try:
        progress = training_progress(_puzzle_of(pk), _json_body(request))
    except SubmissionRefused as error:
        return _refused(error)
    return JsonResponse(
        {
            "position": progress.position,
            "legal_moves": progress.legal_moves,
            "left": progress.left,
            "sight_lines": progress.sight_lines,
            "replies": progress.replies,
        }
    )


@login_required
@require_POST
def training_submit(request: HttpRequest, pk: int) -> JsonResponse:
    """Judge a complete line; the first answer is rated; in a run, the run moves on."""
    puzzle, run = _puzzle_of(pk), _run_of(request)
    try:
        verdict = services.training_attempt_submit(
            puzzle=puzzle, user=request.user, submission=_json_body(request), run=run
        )
    except (SubmissionRefused, services.RunRefused) as error:
        return _refused(error)
    return JsonResponse(_training_verdict_json(request, verdict))


@login_required
@require_POST
def training_give_up(request: HttpRequest, pk: int) -> JsonResponse:
    """Give up and see one optimal line (a mistake in a run)."""
    puzzle, run = _puzzle_of(pk), _run_of(request)
    try:
        verdict = services.training_give_up(puzzle=puzzle, user=request.user, run=run)
    except services.RunRefused as error:
        return _refused(error)
    return JsonResponse(_training_verdict_json(request, verdict))


def _training_verdict_json(request, verdict: services.TrainingVerdict) -> dict:
    if verdict.run is not None and verdict.run.late:
        data = {"result": _("Time is up"), "solved": False, "score": None, "rated": False}
        data["optimum"] = verdict.optimum
    else:
        data = _verdict_json(verdict, request.user)
    if verdict.run is not None:
        run = TrainingRun.objects.get(pk=verdict.run.id)
        data["run"] = _run_json(run, late=verdict.run.late)
        data["next_url"] = reverse("puzzles:run", args=[run.pk])
    return data


def _run_json(run: TrainingRun, *, late: bool = False) -> dict:
    over = run.ended_at is not None
    if run.mode == TrainingRun.Mode.STREAK:
        text = (_("Streak over: %(score)s solved.") if over else _("Streak: %(score)s solved.")) % {
            "score": run.score
        }
    elif late:
        text = _("Time was up: that answer did not count. Score: %(score)s.") % {"score": run.score}
    else:
        text = (_("Storm over. Score: %(score)s.") if over else _("Score: %(score)s.")) % {
            "score": run.score
        }
    return {
        "mode": run.mode,
        "score": run.score,
        "mistakes": run.mistakes,
        "over": over,
        "late": late,
        "text": text,
        "deadline_ms": _ms(run.deadline) if run.deadline and not over else None,
        "server_ms": _ms(timezone.now()),
    }


def _ms(moment: datetime.datetime) -> int:
    return int(moment.timestamp() * 1000)


# --------------------------------------------------------------------------- runs


def _mode_page(request: HttpRequest, mode: str) -> HttpResponse:
    if request.method == "POST" and request.user.is_authenticated:
        try:
            run = services.training_run_start(user=request.user, mode=mode)
        except SubmissionRefused as error:
            return render(request, "puzzles/training_empty.html", {"error": str(error)})
        return redirect("puzzles:run", run.pk)
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    context = {
        "mode": mode,
        "storm_seconds": services.storm_length().seconds,
        "penalty": settings.PUZZLE_STORM_PENALTY_SECONDS,
        "today_board": selectors.run_leaders(mode=mode, since=today),
        "all_time_board": selectors.run_leaders(mode=mode),
    }
    if request.user.is_authenticated:
        context["best"] = selectors.best_score(user=request.user, mode=mode)
        context["open_run"] = selectors.open_run(user=request.user, mode=mode)
    return render(request, "puzzles/training_mode.html", context)


def streak(request: HttpRequest) -> HttpResponse:
    """Puzzle Streak: what it is, the best streaks, and a button to start one."""
    return _mode_page(request, TrainingRun.Mode.STREAK)


def storm(request: HttpRequest) -> HttpResponse:
    """Puzzle Storm: what it is, the day's and all-time boards, and a button to start one."""
    return _mode_page(request, TrainingRun.Mode.STORM)


@login_required
def run_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A run's current puzzle, or its result once over."""
    run = get_object_or_404(TrainingRun, pk=pk, user=request.user)
    if run.ended_at is None:
        run = services.training_run_finish(run=run)
    if run.ended_at is not None or run.current is None:
        context = {"run": run, "best": selectors.best_score(user=request.user, mode=run.mode)}
        return render(request, "puzzles/training_run_over.html", context)
    return _page(request, run.current, run=run, next_url=reverse("puzzles:run", args=[run.pk]))


@login_required
def training_dashboard(request: HttpRequest) -> HttpResponse:
    """Per theme: first-try rate and performance, strongest and weakest, failed puzzles."""
    context = {
        "board": selectors.dashboard(user=request.user),
        "rating": rating_of(user=request.user, kind=PUZZLE),
        "own_waiting": selectors.own_endings_waiting(
            user=request.user, kinds=services.gradable_kinds()
        ),
        "best_streak": selectors.best_score(user=request.user, mode=TrainingRun.Mode.STREAK),
        "best_storm": selectors.best_score(user=request.user, mode=TrainingRun.Mode.STORM),
    }
    return render(request, "puzzles/training_dashboard.html", context)
