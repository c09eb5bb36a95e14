"""The rating-history chart, drawn on the server as SVG coordinates."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.dateformat import format as date_format
from django.utils.translation import pgettext

from ratings.models import RatingChange

WIDTH = 320
HEIGHT = 120
# Room on the left for the rating labels, below for the dates, and around the line.
LEFT = 40
BOTTOM = 18
PAD = 8
#: Label text is 10 units high: two rating labels closer than this would overlap.
LABEL_GAP = 12


@dataclass(frozen=True)
class Chart:
    """A polyline of ratings, oldest first, in an SVG box of ``WIDTH`` x ``HEIGHT``.

    The left axis is labelled with the lowest and highest rating (one label when they
    would overlap), the bottom axis with the dates of the first and last change."""

    points: str
    low: int
    high: int
    low_y: float
    high_y: float
    first: int
    last: int
    count: int
    first_date: str
    last_date: str
    #: False when the lowest and highest labels would overlap: only the highest is drawn.
    low_label: bool = True
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    axis_y: int = HEIGHT - BOTTOM
    date_y: int = HEIGHT - 4


def rating_chart(changes: list[RatingChange]) -> Chart | None:
    """The chart of a rating's changes (its start, then the rating after each), None if empty."""
    if not changes:
        return None
    values = [changes[0].before, *(change.after for change in changes)]
    low, high = min(values), max(values)
    # A flat history still needs a band to draw in.
    span = max(high - low, 20.0)
    step = (WIDTH - LEFT - PAD) / (len(values) - 1)
    plot_bottom = HEIGHT - BOTTOM - PAD

    def y(value: float) -> float:
        return round(plot_bottom - (value - low) / span * (plot_bottom - PAD), 1)

    points = " ".join(f"{round(LEFT + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    # Translators: a date as PHP's date() writes it, with the month's short name: 20 Nov 2026.
    day = pgettext("date format", "j M Y")
    return Chart(
        points=points,
        low=round(low),
        high=round(high),
        low_y=y(low),
        high_y=y(high),
        first=round(values[0]),
        last=round(values[-1]),
        count=len(changes),
        first_date=date_format(changes[0].created, day),
        last_date=date_format(changes[-1].created, day),
        low_label=round(low) != round(high) and y(low) - y(high) >= LABEL_GAP,
    )
