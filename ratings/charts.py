"""The rating-history chart, drawn on the server as SVG coordinates."""

from __future__ import annotations

from dataclasses import dataclass

from ratings.models import RatingChange

WIDTH = 320
HEIGHT = 100
# Room on the left for the rating labels, and above and below the line.
LEFT = 36
PAD = 8


@dataclass(frozen=True)
class Chart:
    """A polyline of ratings, oldest first, in an SVG box of ``WIDTH`` x ``HEIGHT``."""

    points: str
    low: int
    high: int
    low_y: float
    high_y: float
    first: int
    last: int
    count: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT


def rating_chart(changes: list[RatingChange]) -> Chart | None:
    """The chart of a rating's changes (its start, then the rating after each), None if empty."""
    if not changes:
        return None
    values = [changes[0].before, *(change.after for change in changes)]
    low, high = min(values), max(values)
    # A flat history still needs a band to draw in.
    span = max(high - low, 20.0)
    step = (WIDTH - LEFT - PAD) / (len(values) - 1)

    def y(value: float) -> float:
        return round(HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD), 1)

    points = " ".join(f"{round(LEFT + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    return Chart(
        points=points,
        low=round(low),
        high=round(high),
        low_y=y(low),
        high_y=y(high),
        first=round(values[0]),
        last=round(values[-1]),
        count=len(changes),
    )
