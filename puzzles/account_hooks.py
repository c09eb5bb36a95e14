"""The player's puzzle attempts in their data export (``accounts.hooks``)."""

from __future__ import annotations

from accounts.hooks import export_part
from puzzles.models import PuzzleAttempt


@export_part("puzzle_attempts")
def puzzle_attempts(user) -> list[tuple[str, object]]:
    attempts = [
        {
            "puzzle": attempt.puzzle.date.isoformat(),
            "moves": attempt.moves,
            "score": attempt.score,
            "solved": attempt.solved,
            "gave_up": attempt.gave_up,
            "rated": attempt.rated,
            "rating_before": attempt.user_rating_before,
            "rating_after": attempt.user_rating_after,
            "at": attempt.created_at.isoformat(),
        }
        for attempt in PuzzleAttempt.objects.filter(user=user).select_related("puzzle")
    ]
    return [("puzzle_attempts.json", attempts)]
