"""The player's rating history in their data export (``accounts.hooks``)."""

from __future__ import annotations

from accounts.hooks import export_part
from ratings.models import RatingChange


@export_part("ratings")
def rating_history(user) -> list[tuple[str, object]]:
    changes = [
        {
            "kind": change.kind,
            "game": change.game_id,
            "puzzle": change.puzzle_key or None,
            "before": change.before,
            "after": change.after,
            "score": change.score,
            "expected": change.expected,
            "at": change.created.isoformat(),
        }
        for change in RatingChange.objects.filter(user=user).order_by("created", "id")
    ]
    return [("ratings.json", changes)]
