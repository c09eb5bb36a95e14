"""The schedule of recurring events and seasons, on the real PostgreSQL: each entry's
next events are created once however many beats run at once, the admin's checks name
the bad fields, a start typed in the browser's zone is stored in UTC, and a season's
points and trophies pass over bots in events for people only."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.utils import timezone

from tests.tournaments.conftest import entry, new_bot, new_player
from tournaments import scheduling, seasons, selectors, services, tasks
from tournaments.models import (
    Entry,
    Pairing,
    PairingPlayer,
    ScheduleEntry,
    SeasonScore,
    Tournament,
    Trophy,
)

pytestmark = [pytest.mark.postgres]


def saved(schedule_entry: ScheduleEntry) -> ScheduleEntry:
    schedule_entry.save()
    return schedule_entry


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_each_cadence_finds_its_next_starts_in_utc():
    after = at("2026-01-31 10:30")
    found = lambda e, hours: [  # noqa: E731
        t.isoformat() for t in scheduling.occurrences(e, after, after + timedelta(hours=hours))
    ]
    assert found(entry(minute=0), 3) == [
        "2026-01-31T11:00:00+00:00",
        "2026-01-31T12:00:00+00:00",
        "2026-01-31T13:00:00+00:00",
    ]
    # The same minute as now has passed: the next hour's.
    assert found(entry(minute=30), 1) == ["2026-01-31T11:30:00+00:00"]
    assert found(entry(cadence="daily", hour=10, minute=45), 48) == [
        "2026-01-31T10:45:00+00:00",
        "2026-02-01T10:45:00+00:00",
    ]
    # 31 January 2026 is a Saturday; weekday 6 is Sunday.
    assert found(entry(cadence="weekly", weekday=6, hour=17), 24 * 14) == [
        "2026-02-01T17:00:00+00:00",
        "2026-02-08T17:00:00+00:00",
    ]
    assert found(entry(cadence="monthly", day=1, hour=18), 24 * 60) == [
        "2026-02-01T18:00:00+00:00",
        "2026-03-01T18:00:00+00:00",
    ]
    assert found(entry(cadence="monthly", day=31 - 3, hour=9), 24 * 30) == [
        "2026-02-28T09:00:00+00:00"
    ]
    assert found(entry(cadence="monthly", day=1, hour=18), 24 * 365)[-1] == (
        "2027-01-01T18:00:00+00:00"
    )


@pytest.mark.django_db
def test_the_admin_check_names_each_field_that_could_not_make_an_event():
    bad = entry(kind="wizards_garden", format="swiss_tables", table_size=3, minute=75)
    bad.create_ahead_hours = 0
    with pytest.raises(ValidationError) as refused:
        scheduling.schedule_entry_check(bad)
    fields = refused.value.message_dict
    assert {"minute", "create_ahead_hours", "format"} <= set(fields)
    scheduling.schedule_entry_check(entry())


@pytest.mark.django_db
def test_staff_edit_the_schedule_in_the_admin_and_bad_entries_are_refused(django_user_model):
    staff = django_user_model.objects.create_superuser("keeper", "keeper@example.com", "x-9-y")
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/tournaments/scheduleentry/").status_code == 200
    fields = {
        "name": "Nightly arena", "active": "on", "kind": "wizards_garden", "format": "arena",
        "table_size": "2", "max_players": "50", "duration_minutes": "30",
        "clock_initial": "60", "clock_increment": "1", "rated": "on", "cadence": "daily",
        "minute": "0", "hour": "22", "weekday": "0", "day": "1", "create_ahead_hours": "24",
    }  # fmt: skip
    before = ScheduleEntry.objects.count()
    refused = client.post("/admin/tournaments/scheduleentry/add/", {**fields, "hour": "25"})
    assert refused.status_code == 200 and "An hour is 0 to 23." in refused.content.decode()
    assert ScheduleEntry.objects.count() == before
    saved = client.post("/admin/tournaments/scheduleentry/add/", fields)
    assert saved.status_code == 302
    nightly = ScheduleEntry.objects.get(name="Nightly arena")
    assert (nightly.cadence, nightly.hour, nightly.bots_allowed) == ("daily", 22, False)

    # Its events are for people: a bot may not join one.
    scheduling.schedule_run()
    event = Tournament.objects.get(schedule_entry=nightly)
    with pytest.raises(ValidationError, match="bots may not join"):
        services.tournament_join(tournament_id=event.pk, user=new_bot())
    assert not event.entries.exists()


@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_create_each_next_event_exactly_once():
    ScheduleEntry.objects.all().delete()  # the default schedule makes its own events
    hourly = entry()
    hourly.save()
    weekly = entry(
        name="Weekly Swiss", format="swiss", duration_minutes=None, rounds=3,
        cadence="weekly", weekday=2, hour=20, create_ahead_hours=24 * 8,
    )  # fmt: skip
    weekly.save()
    entry(name="Paused", active=False).save()

    # The job is in beat's gathered schedule (production's beat and `make run` alike).
    assert settings.CELERY_BEAT_SCHEDULE["tournaments-schedule"]["task"] == (
        "tournaments.tasks.tournaments_schedule"
    )
    start = threading.Barrier(2)
    failures = []

    def beat():
        try:
            start.wait()
            tasks.tournaments_schedule()  # beat's job, as the worker runs it
        except Exception as error:  # reported by the assertion below
            failures.append(error)
        finally:
            connection.close()

    started = timezone.now()
    beats = [threading.Thread(target=beat) for _ in range(2)]
    for thread in beats:
        thread.start()
    for thread in beats:
        thread.join()
    assert failures == []

    events = Tournament.objects.filter(schedule_entry__isnull=False)
    hourly_starts = sorted(events.filter(schedule_entry=hourly).values_list("starts_at", flat=True))
    expected = scheduling.occurrences(hourly, started, started + timedelta(hours=3))
    assert hourly_starts == list(expected)
    assert len(hourly_starts) == 3
    assert events.filter(schedule_entry=weekly).count() in (1, 2)
    assert not events.filter(name="Paused").exists()
    event = events.filter(schedule_entry=hourly).first()
    assert (event.status, event.kind, event.format, event.created_by) == (
        "upcoming", "topiary", "arena", None,
    )  # fmt: skip
    assert event.people_only and not event.bots_allowed

    # Beat's next minute finds them made.
    before = events.count()
    assert scheduling.schedule_run() == 0
    assert events.count() == before

    # Listed ahead of time; one that nobody entered is not listed once cancelled.
    listing = selectors.tournaments_listing()
    assert {t.pk for t in listing["upcoming"]} == set(events.values_list("pk", flat=True))
    events.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.tournament_advance(tournament_id=event.pk)
    event.refresh_from_db()
    assert event.status == "cancelled"
    assert event.pk not in {t.pk for t in selectors.tournaments_listing()["finished"]}


@pytest.mark.django_db
def test_a_start_typed_in_the_browsers_zone_is_kept_in_utc():
    creator = new_player()
    client = Client()
    client.force_login(creator)
    local = (timezone.now() + timedelta(days=2)).astimezone(timezone.get_fixed_timezone(540))
    typed = local.strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Tokyo evening", "kind": "topiary", "format": "swiss", "table_size": "2",
        "rounds": "3", "clock_minutes": "3", "clock_increment": "2", "max_players": "16",
    }  # fmt: skip
    client.post("/tournaments/new/", {**form, "starts_at": typed, "starts_at_offset": "540"})
    client.post("/tournaments/new/", {**form, "name": "Plain UTC", "starts_at": typed})
    tokyo = Tournament.objects.get(name="Tokyo evening")
    assert tokyo.starts_at == local.replace(second=0, microsecond=0)
    assert Tournament.objects.get(name="Plain UTC").starts_at == datetime.fromisoformat(
        typed
    ).replace(tzinfo=UTC)
    response = client.post(
        "/tournaments/new/", {**form, "name": "Bad", "starts_at": typed, "starts_at_offset": "x"}
    )
    assert response.status_code == 200 and not Tournament.objects.filter(name="Bad").exists()


def scored_event(*, people_only: bool, players: list, starts_at: datetime) -> Tournament:
    """A finished scheduled Swiss whose players scored the given points (as byes)."""
    event = Tournament.objects.create(
        name="Scheduled", kind="wizards_garden", format="swiss", rounds=1, clock_initial=60,
        starts_at=starts_at, max_players=8, status="finished", people_only=people_only,
    )  # fmt: skip
    for board, (user, points) in enumerate(players, start=1):
        played = Entry.objects.create(tournament=event, user=user)
        pairing = Pairing.objects.create(
            tournament=event, board=board, is_bye=True, scored_at=timezone.now()
        )
        PairingPlayer.objects.create(pairing=pairing, entry=played, seat=0, points=points)
    return event


@pytest.mark.django_db
def test_people_only_events_pass_bots_over_for_points_and_trophies():
    bot_a, alice, bot_b, bob, carol = new_bot(), new_player(), new_bot(), new_player(), new_player()
    october = at("2026-10-20 18:00")
    people = scored_event(
        people_only=True, starts_at=october,
        players=[(bot_a, 4), (alice, 3), (bot_b, 2), (bob, 1), (carol, 0)],
    )  # fmt: skip
    everyone = scored_event(
        people_only=False, starts_at=october + timedelta(days=1),
        players=[(bot_a, 3), (bob, 2), (alice, 2)],
    )  # fmt: skip
    for event in (people, everyone, people):  # stored once however often
        seasons.event_results_store(event)

    points = {
        (s.tournament_id, s.user.username): (s.rank, s.points)
        for s in SeasonScore.objects.select_related("user")
    }
    assert points == {
        # Bots passed over; carol scored nothing and played no game: no points.
        (people.pk, alice.username): (1, 10),
        (people.pk, bob.username): (2, 7),
        (everyone.pk, bot_a.username): (1, 10),
        (everyone.pk, bob.username): (2, 7),
        (everyone.pk, alice.username): (2, 7),
    }
    trophies = {(t.tournament_id, t.user.username, t.place) for t in Trophy.objects.all()}
    assert trophies == {(e, u, rank) for (e, u), (rank, _) in points.items()}

    season = date(2026, 10, 1)
    table = [
        (row["rank"], row["user"].username, row["points"], row["events"])
        for row in seasons.season_table("wizards_garden", season)
    ]
    assert table == [
        (1, alice.username, 17, 2),
        (2, bob.username, 14, 2),
        (3, bot_a.username, 10, 1),
    ]

    # A scheduled event of October still to be played holds the season open.
    pending = Tournament.objects.create(
        name="Late", kind="wizards_garden", format="swiss", rounds=1, clock_initial=60,
        starts_at=october + timedelta(days=11), max_players=8,
        schedule_entry=saved(entry(kind="wizards_garden", active=False)),
    )  # fmt: skip
    # Not over until the month has ended.
    assert seasons.seasons_close(now=at("2026-10-31 23:00")) == 0
    november = at("2026-11-01 00:05")
    assert seasons.seasons_close(now=november) == 0
    Tournament.objects.filter(pk=pending.pk).update(status="cancelled")
    assert seasons.seasons_close(now=november) == 1
    assert seasons.seasons_close(now=november) == 0
    awarded = {
        (t.user.username, t.place) for t in seasons.season_trophies("wizards_garden", season)
    }
    assert awarded == {(alice.username, 1), (bob.username, 2), (bot_a.username, 3)}

    client = Client()
    page = client.get("/tournaments/seasons/wizards_garden/?month=2026-10").content.decode()
    assert "season, October 2026" in page
    assert page.index(alice.username) < page.index(bob.username) < page.index(bot_a.username)
    assert "Season trophies" in page
    # A month that is no month shows this one; a game that is none is not found.
    assert client.get("/tournaments/seasons/wizards_garden/?month=2026-13").status_code == 200
    assert client.get("/tournaments/seasons/chess/").status_code == 404
