"""A player's time zone (``Preferences.time_zone``): the daily digest goes at 07:00 in
it, once a day, whatever the zone's offset; e-mailed times are written in it; it is
chosen in the settings (a known zone or none), and pages carry it for their times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts import services as account_services
from accounts.models import Preferences
from alerts import services
from alerts.models import Alert, Event
from alerts.texts import alert_text
from games.models import Game
from tests.alerts.conftest import email_turns
from tests.games.conftest import correspondence_game

pytestmark = pytest.mark.django_db


def zoned(make_player, zone: str):
    player = make_player()
    email_turns(player, "digest")
    if zone:
        account_services.preferences_save(user=player, changes={"time_zone": zone})
    return player


def test_the_digest_goes_at_seven_in_each_players_zone_once_a_day(make_player, tasks_at_once):
    zones = {
        "": "UTC",  # none chosen
        "Asia/Tokyo": "+9",
        "America/New_York": "-5 in November",
        "Asia/Kathmandu": "+5:45",
    }
    players = {zone: zoned(make_player, zone) for zone in zones}
    sent: dict[str, list[tuple[str, str]]] = {zone: [] for zone in zones}
    start = datetime(2026, 11, 28, tzinfo=UTC)
    # Beat's job every quarter of an hour, through one UTC day and a quarter past.
    for quarter in range(4 * 24 + 2):
        now = start + timedelta(minutes=15 * quarter)
        services.digests_send(now=now)
        for zone, player in players.items():
            days = Alert.objects.filter(user=player, event=Event.DIGEST).values_list(
                "subject", flat=True
            )
            if len(days) > len(sent[zone]):
                day = datetime.fromordinal(max(days)).date().isoformat()
                sent[zone].append((now.strftime("%d %H:%M"), day))

    assert sent == {
        # 07:00 UTC.
        "": [("28 07:00", "2026-11-28")],
        # 09:00 in Tokyo when the run starts (its 28th's digest was due), then 07:00 on the 29th.
        "Asia/Tokyo": [("28 00:00", "2026-11-28"), ("28 22:00", "2026-11-29")],
        # 19:00 on the 27th in New York when the run starts, then 07:00 on the 28th.
        "America/New_York": [("28 00:00", "2026-11-27"), ("28 12:00", "2026-11-28")],
        # 07:00 in Kathmandu is 01:15 UTC.
        "Asia/Kathmandu": [("28 01:15", "2026-11-28")],
    }


def test_an_emailed_clock_warning_writes_the_deadline_in_the_players_zone(make_player):
    ann, bob = make_player(), make_player()
    game = correspondence_game([ann, bob], first_player=1)
    deadline = timezone.now().replace(microsecond=0) + timedelta(hours=23)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    game.refresh_from_db()

    def body(user) -> str:
        return alert_text(event=Event.CLOCK_DAY, subject=game.pk, ply=game.ply, user=user)["body"]

    utc = deadline.astimezone(UTC)
    assert f"at {utc:%-d %B %Y, %H:%M} (UTC)." in body(bob)
    account_services.preferences_save(user=bob, changes={"time_zone": "Asia/Tokyo"})
    tokyo = utc + timedelta(hours=9)
    assert f"at {tokyo:%-d %B %Y, %H:%M} (Asia/Tokyo)." in body(bob)


def test_the_zone_is_chosen_in_the_settings_and_pages_carry_it(make_player, client):
    ann = make_player()
    with pytest.raises(ValidationError) as refused:
        account_services.preferences_save(user=ann, changes={"time_zone": "Mars/Olympus"})
    assert refused.value.message_dict == {
        "time_zone": ["'Mars/Olympus' is not a time zone we know."]
    }
    assert Preferences.objects.filter(user=ann).first() is None  # nothing saved

    page = client.get("/account/settings/").content.decode()
    assert "data-time-zone" not in page  # a visitor's pages use the browser's zone
    client.force_login(ann)
    page = client.get("/account/settings/").content.decode()
    assert '<select name="time_zone"' in page and '<option value="Europe/Berlin">' in page
    assert "accounts/time_zone" in page and "data-zone=" not in page
    saved = client.post("/account/settings/", {"theme": "auto", "time_zone": "Europe/Berlin"})
    assert saved.status_code == 302
    assert Preferences.objects.get(user=ann).time_zone == "Europe/Berlin"
    page = client.get("/tournaments/").content.decode()
    assert 'data-theme="auto" data-zone="Europe/Berlin">' in page
