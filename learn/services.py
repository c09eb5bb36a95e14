"""Writes of the learn app: judging a lesson answer with the engine, saving progress."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from engine.errors import EngineError
from games import engine_text
from learn import selectors
from learn.lessons import Attempt, Lesson
from learn.models import LessonProgress

#: The most steps one answer may hold (a Topiary turn is at most two: take, then plant).
MAX_STEPS = 4
MAX_STEP_LENGTH = 40


class AnswerRefused(Exception):
    """A malformed or illegal answer: the message says what is wrong; nothing was saved."""


@dataclass(frozen=True)
class Verdict:
    """``status``: ``continue`` (a take waits for its plant), ``right`` or ``wrong``."""

    status: str
    message: str
    payload: dict = field(default_factory=dict)
    saved: bool = False

    def to_json(self) -> dict:
        return {"status": self.status, "message": self.message, **self.payload}


def _steps_of(answer: Any) -> list[str]:
    if not isinstance(answer, dict) or not isinstance(answer.get("steps"), list):
        raise AnswerRefused(
            _("expected a JSON object like %(example)s") % {"example": '{"steps": ["c5:S"]}'}
        )
    steps = answer["steps"]
    if not 1 <= len(steps) <= MAX_STEPS:
        raise AnswerRefused(
            _("steps: expected 1 to %(most)s steps, got %(count)s")
            % {"most": MAX_STEPS, "count": len(steps)}
        )
    for index, step in enumerate(steps, 1):
        if not isinstance(step, str) or not step or len(step) > MAX_STEP_LENGTH:
            raise AnswerRefused(
                _("step %(index)s: expected a move in notation, got %(step)r")
                % {"index": index, "step": step}
            )
    return steps


def lesson_answer_check(*, lesson: Lesson, number: int, answer: Any, user) -> Verdict:
    """Play ``answer`` (``{"steps": [...]}``) from step ``number`` and judge it by its goal.

    The steps are one move of the learner's (Topiary: ``c5:S``, or ``c5:S c4`` then
    ``=R3``). A take without its plant answers ``continue`` with the taker's view (the
    taken tile shown to the learner only). A finished move answers ``right`` with the
    step's explanation (a signed-in player's progress is saved, once) or ``wrong`` with
    its hint, both in the active language. ``IndexError`` for a step that does not exist;
    ``AnswerRefused`` for an answer that is malformed or not legal, and then nothing is
    saved.
    """
    step = lesson.step(number)
    steps = _steps_of(answer)
    before = lesson.definition.module.state_from_json(step.position)
    seat = before.to_move
    state = before
    for index, move in enumerate(steps, 1):
        if state.is_over or state.to_move != seat or (index > 1 and not state.pending_step):
            raise AnswerRefused(
                _("step %(index)s (%(move)s): your move was already complete")
                % {"index": index, "move": move}
            )
        try:
            state = state.apply(move, seat=seat)
        except EngineError as error:
            reason = engine_text.error_message(error)
            raise AnswerRefused(
                _("step %(index)s (%(move)s): %(reason)s")
                % {"index": index, "move": move, "reason": reason}
            ) from error
    if state.pending_step:
        payload = {
            "legal_steps": state.view(seat).legal_steps(),
            **selectors.position_payload(state, seat, game=lesson.game),
        }
        return Verdict("continue", "", payload)
    payload = selectors.position_payload(state, seat, game=lesson.game)
    if not step.goal(Attempt(before, state, tuple(steps))):
        return Verdict("wrong", str(step.hint), payload)
    saved = False
    if user.is_authenticated:
        saved = LessonProgress.objects.get_or_create(user=user, game=lesson.game, step=step.key)[1]
    return Verdict("right", str(step.explanation), payload, saved=saved)
