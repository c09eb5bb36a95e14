"""Reads for the rules pages and the lessons: payloads built with the engine, progress."""

from __future__ import annotations

from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse

from engine.games import all_games, game_definition
from learn.figures import FIGURES, Figure
from learn.lessons import LESSONS, Lesson
from learn.models import LessonProgress


def rules_template(name: str) -> str | None:
    """The rules page template of the game called ``name`` (its stored kind), if it has one."""
    template = f"learn/rules/{name}.html"
    try:
        get_template(template)
    except TemplateDoesNotExist:
        return None
    return template


def game_for_slug(slug: str):
    """The registered game whose address part is ``slug`` (``wizards-garden``), or None."""
    return next((d for d in all_games() if d.name.replace("_", "-") == slug), None)


def rules_url(name: str) -> str:
    """The address of the rules page of the game called ``name``; "" when it has none."""
    return reverse("learn:rules", args=[name]) if rules_template(name) else ""


def position_payload(state: Any, seat: int, *, game: str, free: bool = False) -> dict:
    """What a page may draw of ``state``: ``seat``'s view and, for games with sight lines,
    the engine's sight lines (with ``free``, the free positions too)."""
    view = state.view(seat)
    payload = {"position": view.to_json()}
    if game_definition(game).sight_lines:
        payload["sight_lines"] = view.sight_lines(free=free)
    return payload


def figure_payload(figure: Figure) -> dict:
    """One rules-page picture as its script draws it (``static/learn/rules.js``)."""
    payload: dict[str, Any] = {"key": figure.key, "game": figure.game, "tiles": list(figure.tiles)}
    if figure.position is None:
        return payload
    before, after = figure.states()
    shown = after or before
    payload["before"] = position_payload(before, figure.seat, game=figure.game)
    payload["after"] = position_payload(after, figure.seat, game=figure.game) if after else None
    payload["move"] = figure.move
    payload["focus"] = figure.focus
    if figure.targets:
        free = before.view(figure.seat).sight_lines(free=True)
        payload["targets"] = [line["position"] for line in free if line["seat"] is None]
    if figure.hand:
        payload["hand"] = shown.view(figure.seat).to_json()["hands"][figure.seat]
        payload["scoring"] = shown.scoring_hand_tiles()[figure.seat]
    return payload


def rules_figures(game: str) -> list[tuple[Figure, str]]:
    """The game's pictures with their captions, in page order."""
    return [(figure, figure.text()) for figure in FIGURES.get(game, ())]


def lesson_step_payload(lesson: Lesson, number: int) -> dict:
    """Step ``number`` of a lesson as its page starts it: the learner's view and legal steps,
    its texts in the active language."""
    step = lesson.step(number)
    state = lesson.definition.module.state_from_json(step.position)
    seat = state.to_move
    return {
        "number": number,
        "key": step.key,
        "title": str(step.title),
        "task": str(step.task),
        "seat": seat,
        "legal_steps": state.view(seat).legal_steps(),
        **position_payload(state, seat, game=lesson.game, free=True),
    }


def lesson_solved(lesson: Lesson, user) -> list[str]:
    """The keys of the lesson's steps a signed-in player has solved (none for a visitor)."""
    if not user.is_authenticated:
        return []
    keys = {step.key for step in lesson.steps}
    solved = LessonProgress.objects.filter(user=user, game=lesson.game).values_list(
        "step", flat=True
    )
    return [key for key in solved if key in keys]


def lessons_overview(user) -> list[dict]:
    """Each game's lesson with its rules page and the player's progress, for /learn/."""
    return [
        {
            "lesson": lesson,
            "definition": lesson.definition,
            "solved": len(lesson_solved(lesson, user)),
            "total": len(lesson.steps),
        }
        for lesson in LESSONS.values()
    ]
