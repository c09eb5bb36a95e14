"""Vacation: a player's correspondence clocks stop while they are away, in the database
and in every viewer's frames; the flag never falls meanwhile; the clock resumes from
where it stopped. The allowance (30 days a year, 14 at once) is the accounts service's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts import services as account_services
from accounts.models import Preferences
from games import services
from games.models import Game, Seat
from tests.games.conftest import correspondence_game, first_legal, live_game
from tests.games.sockets import Socket, in_own_loop

DAY_MS = 24 * 3600 * 1000


def _rewind_vacation(user, by: timedelta) -> None:
    """As if ``by`` had passed since the vacation was set: its end moves that far back."""
    prefs = Preferences.objects.get(user=user)
    Preferences.objects.filter(pk=prefs.pk).update(vacation_until=prefs.vacation_until - by)
    Seat.objects.filter(user=user, away_until__isnull=False).update(
        away_until=prefs.vacation_until - by
    )


def _stopped(frame) -> bool:
    return frame["type"] == "state" and frame["paused_ms"] is not None


def _running(frame) -> bool:
    return frame["type"] == "state" and frame["deadline"] is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@in_own_loop
async def test_vacation_stops_the_clock_for_everyone_and_it_resumes_where_it_stopped(
    make_player, redis_url
):
    ann, bob = await database_sync_to_async(lambda: (make_player(), make_player()))()
    game = await database_sync_to_async(correspondence_game)(
        [ann, bob], correspondence_days=1, first_player=0
    )
    left_before = game.deadline - timezone.now()
    path = f"/ws/game/{game.pk}/"
    bob_socket, watcher = await Socket.open(path, bob), await Socket.open(path, None)
    for socket in (bob_socket, watcher):
        first = await socket.until(lambda f: f["type"] == "state")
        assert first["deadline"] is not None and first["paused_ms"] is None

    prefs = await database_sync_to_async(account_services.vacation_start)(user=ann, days=3)

    # The opponent and a spectator see ann's clock stop, and until when she is away.
    for socket in (bob_socket, watcher):
        frame = await socket.until(_stopped)
        assert frame["deadline"] is None and frame["to_move"] == 0
        assert 0 < left_before.total_seconds() * 1000 - frame["paused_ms"] < 60_000
        assert frame["seats"][0]["vacation_until"] == int(prefs.vacation_until.timestamp() * 1000)
        assert frame["seats"][1]["vacation_until"] is None
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.deadline is None and stored.paused_ms == frame["paused_ms"]

    # The flag never falls while she is away: not from the sweep, not from a flag request,
    # not even from a deadline left behind by a change that raced the vacation.
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(
        deadline=timezone.now() - timedelta(days=1)
    )
    swept = await database_sync_to_async(services.games_sweep)()
    assert swept["flag_checked"] == 1
    await database_sync_to_async(services.clock_check)(game_id=game.pk)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.status == Game.Status.ACTIVE
    assert (
        await database_sync_to_async(lambda: Seat.objects.get(game=game, index=0).forfeit)() == ""
    )
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(deadline=None)

    # Three days later the vacation has run out: the sweep starts her clock again with the
    # time she had left, and everyone sees it run.
    await database_sync_to_async(_rewind_vacation)(ann, timedelta(days=3, seconds=1))
    assert (await database_sync_to_async(services.vacations_sweep)())["vacations_synced"] == 1
    resumed = await bob_socket.until(_running)
    assert resumed["paused_ms"] is None and resumed["seats"][0]["vacation_until"] is None
    left_after = resumed["deadline"] - resumed["server_time"]
    assert abs(left_after - frame["paused_ms"]) < 60_000
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.paused_ms is None and stored.deadline > timezone.now() + timedelta(hours=23)
    # Run twice, the sweep finds nothing more to do.
    assert (await database_sync_to_async(services.vacations_sweep)())["vacations_synced"] == 0
    for socket in (bob_socket, watcher):
        await socket.close()


@pytest.mark.django_db
def test_turns_that_come_to_a_player_away_keep_their_days_and_live_games_run(
    make_player, django_capture_on_commit_callbacks
):
    ann, bob = make_player(), make_player()
    account_services.vacation_start(user=bob, days=2)

    # A correspondence game started while bob is away: his seat says so; ann's turn runs.
    game = correspondence_game([ann, bob], correspondence_days=3, first_player=0)
    bob_seat = Seat.objects.get(game=game, index=1)
    assert bob_seat.away_until == Preferences.objects.get(user=bob).vacation_until
    assert game.deadline is not None and game.paused_ms is None
    # ann moves: bob's turn starts stopped, with his three days whole.
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    game.refresh_from_db()
    assert game.deadline is None and game.paused_ms == 3 * DAY_MS
    # He may still move while away; the turn back to ann runs as usual.
    ply, move = first_legal(game, bob)
    services.move_play(game_id=game.pk, user=bob, ply=ply, move=move)
    game.refresh_from_db()
    assert game.paused_ms is None and game.deadline is not None

    # A live game is not touched by the vacation.
    clocked = live_game([bob, ann], first_player=0)
    assert clocked.deadline is not None and clocked.paused_ms is None
    assert Seat.objects.get(game=clocked, index=0).away_until is None

    # Coming back early starts the stopped clocks at once.
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    game.refresh_from_db()
    assert game.paused_ms == 3 * DAY_MS
    with django_capture_on_commit_callbacks(execute=True):
        account_services.vacation_end(user=bob)
    game.refresh_from_db()
    assert game.paused_ms is None
    assert game.deadline > timezone.now() + timedelta(days=3) - timedelta(minutes=1)
    assert Seat.objects.get(game=game, index=1).away_until is None


@pytest.mark.django_db
def test_the_allowance_is_30_days_a_year_14_at_once_and_unused_days_come_back(make_player):
    ann = make_player()

    def refused(days) -> str:
        with pytest.raises(ValidationError) as info:
            account_services.vacation_start(user=ann, days=days)
        return " ".join(info.value.messages)

    assert "from 1 to 14" in refused(15)
    assert "from 1 to 14" in refused(0)
    assert "from 1 to 14" in refused("three")
    assert not Preferences.objects.filter(user=ann, vacation_until__isnull=False).exists()

    prefs = account_services.vacation_start(user=ann, days=14)
    assert prefs.vacation_days_left(timezone.now()) == 16
    assert "already away" in refused(1)
    # Back after a little over a day: the 12 whole days not begun are given back.
    Preferences.objects.filter(pk=prefs.pk).update(
        vacation_until=prefs.vacation_until - timedelta(days=1, hours=1)
    )
    prefs = account_services.vacation_end(user=ann)
    assert prefs.vacation_days_left(timezone.now()) == 28
    with pytest.raises(ValidationError):
        account_services.vacation_end(user=ann)

    account_services.vacation_start(user=ann, days=14)
    account_services.vacation_end(user=ann)  # straight back: 13 days return, one is spent
    account_services.vacation_start(user=ann, days=14)
    prefs = account_services.vacation_end(user=ann)
    assert prefs.vacation_days_left(timezone.now()) == 26
    Preferences.objects.filter(pk=prefs.pk).update(vacation_days_used=20)
    assert "10 days of vacation left" in refused(11)
    # A new year gives the whole allowance again.
    Preferences.objects.filter(pk=prefs.pk).update(vacation_year=prefs.vacation_year - 1)
    assert Preferences.objects.get(pk=prefs.pk).vacation_days_left(timezone.now()) == 30
