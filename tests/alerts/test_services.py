"""Alerts decided and delivered on the real database: pushes to a push service stand-in
(encrypted, decrypted by the subscription's own keys), e-mails through Django's backend,
clock warnings and digests once, and nothing to a player away."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Preferences
from alerts import selectors, services
from alerts.models import Alert, AlertSettings, Event, PushSubscription
from games import services as game_services
from games.models import Game
from tests.alerts.conftest import email_turns, subscribe, whole_turn
from tests.games.conftest import correspondence_game, live_game
from tests.games.sockets import TILE

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann_and_bob(make_player):
    return make_player(), make_player()


def test_a_turn_reaches_each_browser_encrypted_with_public_facts_only(
    ann_and_bob, push_service, tasks_at_once, django_capture_on_commit_callbacks
):
    ann, bob = ann_and_bob
    phone, laptop = push_service.browser("phone-1"), push_service.browser("laptop-1")
    subscribe(bob, phone), subscribe(bob, laptop)
    with django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game([ann, bob], first_player=0)
        whole_turn(game, ann)
    for browser in (phone, laptop):
        turns = [a for a in push_service.alerts_to(browser) if a["tag"] == f"game-{game.pk}"]
        assert [a["title"] for a in turns] == [
            f"Your game Topiary #{game.pk} against {ann.username} has started",
            f"Your turn in Topiary #{game.pk} against {ann.username}",
        ]
        assert turns[-1]["url"] == f"/game/{game.pk}/"
        assert not TILE.findall(json.dumps(turns))
        # Signed with the site's VAPID key, encrypted as RFC 8291 says.
        headers = push_service.to(browser)[-1].headers
        assert headers["content-encoding"] == "aes128gcm"
        assert f"k={services.vapid.public_key()}" in headers["authorization"]
    assert PushSubscription.objects.get(endpoint=phone.endpoint).last_success_at is not None
    # A second run of the same alert sends nothing.
    assert (
        services.alert_send(event=Event.TURN, subject=game.pk, ply=game.ply, user_id=bob.pk) is None
    )
    assert len(push_service.to(phone)) == 2


def test_a_gone_subscription_is_deleted_and_a_busy_service_is_tried_again(
    ann_and_bob, push_service
):
    ann, _bob = ann_and_bob
    gone, busy = push_service.browser("gone-1"), push_service.browser("busy-1")
    push_service.answer["/push/gone-1"] = 410
    push_service.answer["/push/busy-1"] = 503
    gone_row, busy_row = subscribe(ann, gone), subscribe(ann, busy)
    alert = Alert.objects.create(user=ann, event=Event.TEST, subject=1)
    assert services.push_deliver(alert_id=alert.pk, subscription_id=gone_row.pk) == "gone"
    assert not PushSubscription.objects.filter(pk=gone_row.pk).exists()
    with pytest.raises(services.DeliveryLater):
        services.push_deliver(alert_id=alert.pk, subscription_id=busy_row.pk)
    assert PushSubscription.objects.filter(pk=busy_row.pk).exists()


def test_live_games_alert_their_start_not_their_turns_and_bot_games_nothing(
    ann_and_bob, push_service, tasks_at_once, django_capture_on_commit_callbacks
):
    ann, bob = ann_and_bob
    phone = push_service.browser("live-1")
    subscribe(bob, phone)
    assert selectors.reachable([ann.pk, bob.pk]) == [bob.pk]
    with django_capture_on_commit_callbacks(execute=True):
        game = whole_turn(live_game([ann, bob], first_player=0), ann)
    assert game.ply > 0
    assert [a["title"] for a in push_service.alerts_to(phone)] == [
        f"Your game Topiary #{game.pk} against {ann.username} has started"
    ]
    # A game against house bots alone alerts no turn, start or end.
    with django_capture_on_commit_callbacks(execute=True):
        bot_game = game_services.bot_game_create(
            user=bob,
            kind="wizards_garden",
            level="random",
            clock_initial=None,
            clock_increment=None,
            correspondence_days=3,
            rated=False,
        )
        bot_game = whole_turn(bot_game, bob)
        game_services.game_resign(game_id=bot_game.pk, user=bob)
    for event in (Event.TURN, Event.STARTED, Event.ENDED):
        assert services.alert_send(event=event, subject=bot_game.pk, ply=1, user_id=bob.pk) is None
    assert not Alert.objects.filter(user=bob, subject=bot_game.pk).exists()
    assert len(push_service.to(phone)) == 1


def test_turn_emails_come_once_a_day_per_game_and_unsubscribe_in_one_click(
    ann_and_bob, tasks_at_once, django_capture_on_commit_callbacks, client
):
    ann, bob = ann_and_bob
    email_turns(bob)
    with django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game([ann, bob], first_player=0)
        game = whole_turn(game, ann)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [bob.email]
    assert message.subject == f"Your turn in Topiary #{game.pk} against {ann.username}"
    assert f"/game/{game.pk}/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe_url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe_url in message.body
    # The next turn of that game within the day: its alert is decided, no second mail.
    with django_capture_on_commit_callbacks(execute=True):
        game = whole_turn(whole_turn(game, bob), ann)
    assert Alert.objects.filter(user=bob, event=Event.TURN).count() == 2
    assert len(mail.outbox) == 1
    # A day later the game's next turn mails again.
    Alert.objects.filter(user=bob).update(mailed_at=timezone.now() - timedelta(hours=25))
    with django_capture_on_commit_callbacks(execute=True):
        game = whole_turn(whole_turn(game, bob), ann)
    assert len(mail.outbox) == 2

    # Opening the link changes nothing (a mail scanner follows links); the one-click POST does.
    path = urlparse(unsubscribe_url).path
    assert client.get(path).status_code == 200
    assert AlertSettings.objects.get(user=bob).email_turns == "each"
    forged = path.replace(path.split("/")[-2], path.split("/")[-2][:-3] + "abc")
    assert client.post(forged, {"List-Unsubscribe": "One-Click"}).status_code == 400
    assert AlertSettings.objects.get(user=bob).email_turns == "each"
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert AlertSettings.objects.get(user=bob).email_turns == "off"
    Alert.objects.filter(user=bob).update(mailed_at=timezone.now() - timedelta(hours=25))
    with django_capture_on_commit_callbacks(execute=True):
        whole_turn(whole_turn(game, bob), ann)
    assert len(mail.outbox) == 2


def test_clock_warnings_come_a_day_and_an_hour_before_once_each(
    ann_and_bob, push_service, tasks_at_once
):
    ann, bob = ann_and_bob
    phone = push_service.browser("clock-1")
    subscribe(bob, phone)
    email_turns(bob, "off", email_clocks=True)
    game = whole_turn(correspondence_game([ann, bob], first_player=0), ann)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=now - timedelta(days=2), deadline=now + timedelta(hours=23)
    )
    assert services.clock_warnings_send() == 1
    assert services.clock_warnings_send() == 0
    Game.objects.filter(pk=game.pk).update(deadline=now + timedelta(minutes=50))
    assert services.clock_warnings_send() == 1
    assert services.clock_warnings_send() == 0
    warnings = [a["title"] for a in push_service.alerts_to(phone)]
    assert warnings == [
        f"A day left for your move in Topiary #{game.pk} against {ann.username}",
        f"An hour left for your move in Topiary #{game.pk} against {ann.username}",
    ]
    assert [m.subject for m in mail.outbox] == warnings
    # A turn a day long or shorter gets the hour's warning only.
    game = whole_turn(game, bob)
    game = whole_turn(game, ann)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=now - timedelta(hours=1), deadline=now + timedelta(hours=22)
    )
    assert services.clock_warnings_send() == 0


def test_nothing_reaches_a_player_on_vacation(ann_and_bob, push_service, tasks_at_once):
    ann, bob = ann_and_bob
    phone = push_service.browser("away-1")
    subscribe(bob, phone)
    email_turns(bob)
    Preferences.objects.update_or_create(
        user=bob, defaults={"vacation_until": timezone.now() + timedelta(days=3)}
    )
    game = correspondence_game([ann, bob], first_player=1)
    assert services.alert_send(event=Event.STARTED, subject=game.pk, user_id=bob.pk) is None
    assert services.test_alert_send(user=bob) is None
    assert push_service.to(phone) == [] and mail.outbox == []


def test_the_daily_digest_lists_every_game_waiting_once_a_day(make_player, tasks_at_once):
    bob, ann, cat = make_player(), make_player(), make_player()
    email_turns(bob, "digest")
    waiting = [
        correspondence_game([bob, ann], first_player=0),
        correspondence_game([cat, bob], first_player=1),
    ]
    correspondence_game([bob, cat], first_player=1)  # cat's move: not listed
    # Past 07:00 UTC (bob chose no zone), as beat's quarter-hourly runs find it.
    morning = timezone.now().replace(hour=8)
    assert services.digests_send(now=morning) == 1
    assert services.digests_send(now=morning + timedelta(minutes=15)) == 0
    (message,) = mail.outbox
    assert message.subject == "Games waiting for your move: 2"
    for game in waiting:
        assert f"/game/{game.pk}/" in message.body
    assert "List-Unsubscribe" in message.extra_headers


def test_a_challenge_its_start_its_end_and_a_tournament_start_each_alert(
    make_player, push_service, tasks_at_once, django_capture_on_commit_callbacks
):
    from tests.games.conftest import challenge
    from tests.tournaments.conftest import make_tournament
    from tournaments import services as tournament_services

    ann, bob, cat, dan = (make_player() for _ in range(4))
    phone = push_service.browser("events-1")
    subscribe(bob, phone)
    with django_capture_on_commit_callbacks(execute=True):
        game = challenge(ann, bob, rated=False)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.table_join(game_id=game.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_resign(game_id=game.pk, user=bob)
    name = f"Topiary #{game.pk}"
    assert [(a["title"], a["body"]) for a in push_service.alerts_to(phone)] == [
        (f"{ann.username} challenges you to {name}", "5+3, casual."),
        (f"Your game {name} against {ann.username} has started", "5+3"),
        (f"{name} against {ann.username} is over", "You placed 2 of 2."),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        tournament = make_tournament(ann)
        for player in (bob, cat, dan):
            tournament_services.tournament_join(tournament_id=tournament.pk, user=player)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.tournament_start_early(tournament_id=tournament.pk, by=ann)
    (started,) = [a for a in push_service.alerts_to(phone) if a["tag"].startswith("tournament")]
    assert started["title"] == "The tournament Spring Swiss has started"
    assert started["url"] == f"/tournaments/{tournament.pk}/"


def test_a_broker_failure_undoes_the_claim_so_the_retry_alerts(
    make_player, push_service, tasks_at_once, monkeypatch
):
    bob = make_player()
    phone = push_service.browser("broker-1")
    subscribe(bob, phone)
    queue = services._task_queue

    def broker_down(name, *args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(services, "_task_queue", broker_down)
    with pytest.raises(ConnectionError):
        services.alert_send(event=Event.TEST, subject=7, user_id=bob.pk)
    assert not Alert.objects.filter(user=bob).exists()
    monkeypatch.setattr(services, "_task_queue", queue)
    assert services.alert_send(event=Event.TEST, subject=7, user_id=bob.pk) is not None
    assert len(push_service.to(phone)) == 1


def test_alerts_older_than_two_months_are_forgotten(make_player):
    bob = make_player()
    old, recent = (Alert.objects.create(user=bob, event=Event.TEST, subject=n) for n in (1, 2))
    Alert.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=61))
    assert services.alerts_prune() == 1
    assert list(Alert.objects.values_list("pk", flat=True)) == [recent.pk]
