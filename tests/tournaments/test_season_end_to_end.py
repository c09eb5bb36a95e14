"""A season on the real stack: the schedule creates two events, three bots join them,
the real Celery worker plays them to the end, and the season's points and trophies are
what the events' final standings say; the month's end awards the season's trophies,
shown on the winner's profile by the real web server."""

from __future__ import annotations

import time
import urllib.request
from collections import defaultdict
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import new_bot
from tournaments import scheduling, seasons, services, tasks
from tournaments.models import ScheduleEntry, SeasonScore, Tournament, Trophy
from tournaments.selectors import tournament_standings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery,
    pytest.mark.slow,
]

#: How long the two events may take before the test gives up (a deadline, not a measure).
PATIENCE = 180


def wait_until(check, what: str):
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting: {what}")


def over(events) -> bool:
    statuses = set(Tournament.objects.filter(pk__in=events).values_list("status", flat=True))
    assert "cancelled" not in statuses
    return statuses == {"finished"}


def test_two_scheduled_events_played_by_bots_make_a_season(celery_worker, asgi_server):
    ScheduleEntry.objects.all().delete()
    schedule = ScheduleEntry.objects.create(
        name="Hourly bot Swiss", kind="wizards_garden", format="swiss", rounds=1,
        clock_initial=60, clock_increment=0, rated=False, max_players=3, cadence="hourly",
        minute=timezone.now().minute, create_ahead_hours=2, bots_allowed=True,
        people_only=False,
    )  # fmt: skip
    scheduling.schedule_run()
    events = list(Tournament.objects.filter(schedule_entry=schedule).order_by("starts_at"))
    assert len(events) == 2

    bots = [new_bot() for _ in range(3)]
    for event in events:
        for bot in bots:  # open to bots: they join by themselves
            services.tournament_join(tournament_id=event.pk, user=bot)
    # Their start comes: as beat's tick would, at once.
    for seconds, event in enumerate(events, start=1):
        Tournament.objects.filter(pk=event.pk).update(
            starts_at=timezone.now() - timedelta(seconds=seconds)
        )
    season = seasons.season_of(Tournament.objects.get(pk=events[0].pk).starts_at)
    for event in events:
        tasks.tournament_advance.delay(event.pk)
    wait_until(lambda: over([e.pk for e in events]), "both events to finish")

    expected_points: dict[str, int] = defaultdict(int)
    for event in events:
        ranks = {row.entry.user.username: row.rank for row in tournament_standings(event)}
        stored = {
            s.user.username: (s.rank, s.points)
            for s in SeasonScore.objects.filter(tournament=event).select_related("user")
        }
        assert stored == {name: (rank, seasons.points_for(rank)) for name, rank in ranks.items()}
        trophies = {
            (t.user.username, t.place, t.season)
            for t in Trophy.objects.filter(tournament=event).select_related("user")
        }
        assert trophies == {(name, rank, season) for name, rank in ranks.items() if rank <= 3}
        for name, rank in ranks.items():
            expected_points[name] += seasons.points_for(rank)

    table = seasons.season_table("wizards_garden", season)
    assert {row["user"].username: (row["points"], row["events"]) for row in table} == {
        name: (points, 2) for name, points in expected_points.items()
    }

    # The month ends: the season's top three get trophies, once.
    next_month = seasons.season_bounds(season)[1] + timedelta(minutes=1)
    assert seasons.seasons_close(now=next_month) == 1
    assert seasons.seasons_close(now=next_month) == 0
    season_trophies = seasons.season_trophies("wizards_garden", season)
    assert {(t.user.username, t.place) for t in season_trophies} == {
        (row["user"].username, row["rank"]) for row in table if row["rank"] <= 3
    }

    winner = table[0]["user"]
    profile_url = asgi_server + reverse("accounts:profile", args=[winner.username])
    with urllib.request.urlopen(profile_url) as response:
        profile = response.read().decode()
    assert f"place 1, Wizards&#x27; Garden season {season:%B %Y}" in profile
    assert profile.count('class="medal medal-') == Trophy.objects.filter(user=winner).count()
    with urllib.request.urlopen(
        f"{asgi_server}/tournaments/seasons/wizards_garden/?month={season:%Y-%m}"
    ) as response:
        page = response.read().decode()
    assert f'<tr data-player="{winner.username}"><td class="num">1</td>' in page
