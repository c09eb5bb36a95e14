import datetime

from django.urls import path, register_converter

from puzzles import views


class IsoDateConverter:
    """A date in the URL as ISO ``YYYY-MM-DD`` (the date the verification command takes)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> datetime.date:
        return datetime.date.fromisoformat(value)

    def to_url(self, value: datetime.date) -> str:
        return value.isoformat()


register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", views.puzzle_today, name="today"),
    path("archive/", views.archive, name="archive"),
    path("about/", views.puzzle_about, name="about"),
    path("leaderboard/", views.puzzle_leaderboard, name="leaderboard"),
    path("<isodate:date>/", views.puzzle_page, name="puzzle"),
    path("<isodate:date>/play/", views.puzzle_play, name="play"),
    path("<isodate:date>/submit/", views.puzzle_submit, name="submit"),
    path("<isodate:date>/give-up/", views.puzzle_give_up, name="give_up"),
]
