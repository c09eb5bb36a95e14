import datetime

from django.urls import path, register_converter

from puzzles import training_views, views


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
    path("train/", training_views.training_stream, name="train"),
    path("train/<int:pk>/", training_views.training_puzzle, name="train_puzzle"),
    path("train/<int:pk>/play/", training_views.training_play, name="train_play"),
    path("train/<int:pk>/submit/", training_views.training_submit, name="train_submit"),
    path("train/<int:pk>/give-up/", training_views.training_give_up, name="train_give_up"),
    path("streak/", training_views.streak, name="streak"),
    path("storm/", training_views.storm, name="storm"),
    path("run/<int:pk>/", training_views.run_page, name="run"),
    path("dashboard/", training_views.training_dashboard, name="dashboard"),
    path("<isodate:date>/", views.puzzle_page, name="puzzle"),
    path("<isodate:date>/play/", views.puzzle_play, name="play"),
    path("<isodate:date>/submit/", views.puzzle_submit, name="submit"),
    path("<isodate:date>/give-up/", views.puzzle_give_up, name="give_up"),
]
