"""What the puzzle app adds to the home page and to a player's profile."""

from __future__ import annotations

import pytest
from django.utils import timezone

from puzzles import services
from puzzles.models import DailyPuzzle
from tests.puzzles.conftest import submission

pytestmark = pytest.mark.django_db


def test_the_home_page_teases_todays_puzzle_without_waiting_for_it_to_be_made(client):
    html = client.get("/").content.decode()
    assert "Daily puzzle" in html and 'href="/puzzles/"' in html
    assert not DailyPuzzle.objects.exists()


def test_the_home_page_shows_a_solvers_result_and_streak(client, solver):
    today = services.daily_puzzle_get_or_create(date=timezone.localdate())
    services.puzzle_attempt_submit(
        puzzle=today, user=solver, submission=submission(today, today.line)
    )
    client.force_login(solver)
    html = client.get("/").content.decode()
    today.refresh_from_db()
    assert f"Puzzle rating {today.rating:.0f}" in html
    assert "Your result: <strong>Solved</strong>" in html
    assert "Your streak: <strong>1 day</strong>" in html
    # The button reads the attempts, not the result's (translated) wording.
    assert "See today's puzzle" in html


def test_a_profile_shows_puzzle_rating_and_streaks(client, solver):
    today = services.daily_puzzle_get_or_create(date=timezone.localdate())
    verdict = services.puzzle_attempt_submit(
        puzzle=today, user=solver, submission=submission(today, today.line)
    )
    html = client.get(f"/@/{solver.username}/").content.decode()
    panel = html[html.index('id="panel-puzzles"') :]
    assert f"<strong>{round(verdict.rating_after)}?</strong>" in panel
    assert "<strong>1</strong> day" in panel
    assert "Puzzles solved</dt><dd>1</dd>" in panel
