"""The player's lesson progress in their data export (``accounts.hooks``)."""

from __future__ import annotations

from accounts.hooks import export_part
from learn.models import LessonProgress


@export_part("lessons")
def lessons(user) -> list[tuple[str, object]]:
    solved = [
        {"game": row.game, "step": row.step, "at": row.solved_at.isoformat()}
        for row in LessonProgress.objects.filter(user=user)
    ]
    return [("lessons.json", solved)]
