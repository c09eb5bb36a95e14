"""The rules pages, the lessons and the endpoint that judges a lesson answer.

``POST /learn/<game>/<n>/check/`` with ``{"steps": ["c5:S c4", "=R3"]}`` answers
``{"status": "continue" | "right" | "wrong", "message", "position", ...}`` (see
``learn.services.lesson_answer_check``); a malformed or illegal answer is HTTP 400
``{"error": "<why>"}`` and changes nothing.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from learn import selectors, services
from learn.lessons import Lesson, lesson_for_slug


def _lesson_or_404(slug: str) -> Lesson:
    lesson = lesson_for_slug(slug)
    if lesson is None:
        raise Http404("No lesson for that game")
    return lesson


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """How to play one game, with pictures drawn from engine positions."""
    definition = selectors.game_for_slug(slug)
    template = selectors.rules_template(definition.name) if definition else None
    if template is None:
        raise Http404("No rules page for that game")
    figures = selectors.rules_figures(definition.name)
    context = {
        "definition": definition,
        "figures": {
            figure.key.replace("-", "_"): {"key": figure.key, "text": text}
            for figure, text in figures
        },
        "figure_data": [selectors.figure_payload(figure) for figure, _ in figures],
        "lesson": lesson_for_slug(slug),
    }
    return render(request, template, context)


def learn_index(request: HttpRequest) -> HttpResponse:
    """Every game's rules and first lesson, with the player's progress."""
    return render(
        request, "learn/index.html", {"courses": selectors.lessons_overview(request.user)}
    )


def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's first lesson: every step's position, played one at a time."""
    lesson = _lesson_or_404(slug)
    data = {
        "game": lesson.game,
        "slug": lesson.slug,
        "steps": [
            selectors.lesson_step_payload(lesson, n) for n in range(1, len(lesson.steps) + 1)
        ],
        "solved": selectors.lesson_solved(lesson, request.user),
        "signed_in": request.user.is_authenticated,
        "play_url": reverse("games:lobby"),
        "check_urls": [
            reverse("learn:check", args=[lesson.slug, n]) for n in range(1, len(lesson.steps) + 1)
        ],
    }
    return render(request, "learn/lesson.html", {"lesson": lesson, "data": data})


@require_POST
def lesson_check(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """Judge one answer to a lesson step with the engine."""
    lesson = _lesson_or_404(slug)
    try:
        answer = json.loads(request.body.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        message = _("the request body is not JSON: %(error)s") % {"error": error}
        return JsonResponse({"error": message}, status=400)
    try:
        verdict = services.lesson_answer_check(
            lesson=lesson, number=number, answer=answer, user=request.user
        )
    except IndexError:
        raise Http404("No such lesson step") from None
    except services.AnswerRefused as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse(verdict.to_json())
