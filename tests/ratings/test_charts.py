"""The rating-history chart: dates on its axis, rating labels that never overlap."""

from datetime import UTC, datetime

from ratings.charts import LABEL_GAP, rating_chart
from ratings.models import RatingChange


def changes(*pairs, day=1):
    made = []
    for i, (before, after) in enumerate(pairs):
        change = RatingChange(before=before, after=after, k=32, score=1, expected=0.5)
        change.created = datetime(2026, 11, day + i, 12, tzinfo=UTC)
        made.append(change)
    return made


def test_the_chart_names_its_first_and_last_dates():
    chart = rating_chart(changes((1500, 1516), (1516, 1530), day=20))
    assert (chart.first_date, chart.last_date) == ("20 Nov 2026", "21 Nov 2026")
    assert chart.low_label and chart.low_y - chart.high_y >= LABEL_GAP


def test_ratings_a_point_apart_get_one_label_not_two_on_top_of_each_other():
    chart = rating_chart(changes((1500, 1499)))
    assert (chart.high, chart.low) == (1500, 1499)
    assert not chart.low_label


def test_no_history_no_chart():
    assert rating_chart([]) is None
