"""House bots in scheduled events, on the real PostgreSQL: the schedule job enters an
entry's house bots once, in the events it creates, only where bots are allowed; an event
that nobody but its house bots entered does not start them playing each other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from accounts.services import BOT_USERNAMES
from tests.tournaments.conftest import entry, new_player
from tournaments import scheduling, services
from tournaments.models import Entry, ScheduleEntry, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: A fixed moment between two hourly starts (the settings check wants starts ahead).
NOW = (timezone.now() + timedelta(days=1)).replace(minute=30, second=0, microsecond=0)


def entrants(event: Tournament) -> set[str]:
    return set(event.entries.values_list("user__username", flat=True))


def test_the_job_enters_an_entrys_house_bots_once_and_none_in_events_for_people():
    ScheduleEntry.objects.all().delete()  # the default schedule makes its own events
    with_bots = entry(bots_allowed=True, house_bots=["random", "greedy"])
    with_bots.save()
    for_people = entry(name="People's blitz", house_bots=[])
    for_people.save()

    assert scheduling.schedule_run(now=NOW) == 6
    bot_events = Tournament.objects.filter(schedule_entry=with_bots)
    assert bot_events.count() == 3
    bots = {BOT_USERNAMES["random"], BOT_USERNAMES["greedy"]}
    assert all(entrants(event) == bots for event in bot_events)
    assert not Entry.objects.filter(tournament__schedule_entry=for_people).exists()

    # A bot taken out of an event stays out: the next beats enter bots in new events only.
    first = bot_events.order_by("starts_at").first()
    first.entries.filter(user__username=BOT_USERNAMES["random"]).delete()
    assert scheduling.schedule_run(now=NOW) == 0
    assert entrants(first) == {BOT_USERNAMES["greedy"]}
    assert scheduling.schedule_run(now=NOW + timedelta(hours=1)) == 2
    assert Entry.objects.filter(tournament__schedule_entry=with_bots).count() == 3 * 2 - 1 + 2
    assert not Entry.objects.filter(tournament__schedule_entry=for_people).exists()


def test_staff_choose_the_house_bots_in_the_admin_where_bots_may_join(django_user_model):
    staff = django_user_model.objects.create_superuser("keeper", "keeper@example.com", "x-9-y")
    client = Client()
    client.force_login(staff)
    fields = {
        "name": "Bots' arena", "active": "on", "kind": "topiary", "format": "arena",
        "table_size": "2", "max_players": "50", "duration_minutes": "30",
        "clock_initial": "60", "clock_increment": "1", "cadence": "daily", "minute": "0",
        "hour": "22", "weekday": "0", "day": "1", "create_ahead_hours": "24",
        "house_bots": ["greedy", "strong"],
    }  # fmt: skip
    refused = client.post("/admin/tournaments/scheduleentry/add/", fields)
    assert "House bots join only events that allow bots." in refused.content.decode()
    assert not ScheduleEntry.objects.filter(name="Bots' arena").exists()
    saved = client.post("/admin/tournaments/scheduleentry/add/", {**fields, "bots_allowed": "on"})
    assert saved.status_code == 302
    assert ScheduleEntry.objects.get(name="Bots' arena").house_bots == ["greedy", "strong"]


def test_house_bots_are_refused_where_bots_may_not_join():
    with pytest.raises(ValidationError) as refused:
        scheduling.schedule_entry_check(entry(bots_allowed=False, house_bots=["strong"]))
    assert refused.value.message_dict["house_bots"] == [
        "House bots join only events that allow bots."
    ]
    with pytest.raises(ValidationError, match="at most once"):
        scheduling.schedule_entry_check(entry(bots_allowed=True, house_bots=["strong", "strong"]))
    scheduling.schedule_entry_check(entry(bots_allowed=True, house_bots=["strong"]))


def test_an_event_with_only_its_house_bots_is_called_off_and_one_with_a_person_starts():
    ScheduleEntry.objects.all().delete()
    with_bots = entry(bots_allowed=True, house_bots=["random", "greedy"], create_ahead_hours=1)
    with_bots.save()
    scheduling.schedule_run(now=timezone.now())
    lonely = Tournament.objects.get(schedule_entry=with_bots)
    second = Tournament.objects.create(
        **{f: getattr(lonely, f) for f in ("name", "kind", "format", "duration_minutes")},
        clock_initial=lonely.clock_initial,
        max_players=10,
        starts_at=lonely.starts_at + timedelta(hours=1),
        schedule_entry=with_bots,
        bots_allowed=True,
    )
    for bot in lonely.entries.all():
        Entry.objects.create(tournament=second, user=bot.user)
    services.tournament_join(tournament_id=second.pk, user=new_player())
    for late, event in enumerate([lonely, second], start=1):  # both due now
        Tournament.objects.filter(pk=event.pk).update(
            starts_at=timezone.now() - timedelta(seconds=late)
        )

    lonely = services.tournament_advance(tournament_id=lonely.pk)
    assert lonely.status == "cancelled"
    assert lonely.note_text == "Nobody entered but the house bots."
    second = services.tournament_advance(tournament_id=second.pk)
    assert second.status == "running"
