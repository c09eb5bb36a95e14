"""A process's moves start from the game it holds in memory, never from a stale copy."""

from __future__ import annotations

import json
import tempfile
from datetime import timedelta

import psycopg
import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import OperationalError, connection
from django.utils import timezone
from psycopg import pq

from games import consumers, live, selectors, services
from games.models import Game, Seat
from games.services import Refused
from tests.games.conftest import at_once, live_game

pytestmark = pytest.mark.django_db

POSTGRES_URL = "postgresql://{0[USER]}@{0[HOST]}:{0[PORT]}/{0[NAME]}"


def move_of(game: Game, user) -> tuple[int, str]:
    frame = selectors.game_state_for(game.pk, user)
    return frame["ply"], frame["legal_moves"][0]


def play(game: Game, user) -> None:
    ply, move = move_of(game, user)
    services.move_play(game_id=game.pk, user=user, ply=ply, move=move)


@pytest.fixture
def taken(make_player):
    """Ann's first turn played, her page long gone: the process holds the game, Bob to move."""
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    play(game, ann)
    Seat.objects.filter(game=game, user=ann).update(last_seen=timezone.now() - timedelta(hours=1))
    return ann, bob, game


def test_a_move_after_a_change_made_elsewhere_sees_that_change(taken):
    """Ann resigns through the locked writer (a request, another web process, a worker):
    Bob's move, for the ply the held copy is at, must find the game over."""
    ann, bob, game = taken
    legal = move_of(game, bob)
    services.game_resign(game_id=game.pk, user=ann)
    with pytest.raises(Refused) as refusal:
        services.move_play(game_id=game.pk, user=bob, ply=legal[0], move=legal[1])
    assert refusal.value.code == "finished"
    game.refresh_from_db()
    assert game.ply == 1 and len(game.moves) == 1


def test_a_write_that_bypasses_the_model_still_makes_the_held_copy_stale(taken):
    """The database moves the version on for any update (a trigger), so an operator's
    statement counts too: here Bob's time runs out behind the model's back."""
    _ann, bob, game = taken
    legal = move_of(game, bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Refused) as refusal:
        services.move_play(game_id=game.pk, user=bob, ply=legal[0], move=legal[1])
    assert refusal.value.code == "out_of_time"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ply == 1


def test_the_held_game_plays_on_from_where_it_was_written(taken):
    ann, bob, game = taken
    play(game, bob)
    play(game, ann)
    play(game, bob)
    game.refresh_from_db()
    assert game.ply == 4
    assert [entry["seat"] for entry in game.moves] == [0, 1, 0, 1]
    replayed = game.engine_initial()
    for entry in game.moves:
        replayed = replayed.apply(entry["move"], entry["seat"])
    assert replayed.to_json() == game.state
    assert selectors.game_state_for(game.pk, ann)["legal_moves"]


def test_a_held_move_shows_the_opponents_signs_of_life_as_written(
    taken, django_capture_on_commit_callbacks
):
    """Pages write a seat's ``last_seen`` without the game's lock (every heartbeat, every
    close): a held move reads them again, so Bob sees how long Ann's page has been gone
    (an hour, as written after her move), not how long since the copy was made."""
    ann, bob, game = taken
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(live.seat_group(game.pk, 1), channel)
    with django_capture_on_commit_callbacks(execute=True):
        play(game, bob)
    frame = json.loads(async_to_sync(layer.receive)(channel)["text"])
    ann_seat = next(seat for seat in frame["seats"] if seat["username"] == ann.username)
    assert frame["ply"] == 2
    assert ann_seat["online"] is False
    assert ann_seat["away_ms"] >= 3_600_000


@pytest.mark.django_db(transaction=True)
def test_two_moves_for_one_ply_of_a_held_game_only_one_applies(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    play(game, ann)
    ply, _ = move_of(game, bob)
    moves = selectors.game_state_for(game.pk, bob)["legal_moves"][:2]
    outcomes = at_once(
        lambda move: services.move_play(game_id=game.pk, user=bob, ply=ply, move=move), moves
    )
    game.refresh_from_db()
    assert sorted(outcomes) == ["ok", "stale"]
    assert game.ply == 2 and len(game.moves) == 2 and game.moves[1]["move"] in moves


def _round_trips(action) -> int:
    """How many times ``action`` waited for PostgreSQL to answer (libpq's own trace of
    the messages on this thread's connection: one ReadyForQuery ends each exchange)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            action()
        finally:
            pgconn.untrace()
        trace.seek(0)
        return trace.read().count("\tReadyForQuery")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_held_move_is_one_exchange_with_postgresql(make_player):
    """No BEGIN, locking read, two UPDATEs and COMMIT: the held move's writes and its
    version check go out as one prepared statement, outside any transaction block."""
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    play(game, ann)
    play(game, bob)  # the first held move on this connection prepares the statement
    ply, move = move_of(game, ann)
    trips = _round_trips(lambda: services.move_play(game_id=game.pk, user=ann, ply=ply, move=move))
    game.refresh_from_db()
    assert trips == 1
    assert game.ply == 3 and game.moves[-1]["move"] == move
    assert Seat.objects.get(game=game, index=0).last_seen is not None
    play(game, bob)
    game.refresh_from_db()
    assert game.ply == 4


@pytest.mark.django_db(transaction=True)
def test_a_refused_held_move_writes_nothing_and_the_game_plays_on(taken):
    """A refusal worked out on the held copy is worked out again on a fresh read (the
    copy might have been stale): the same refusal, nothing written, play goes on."""
    _ann, bob, game = taken
    ply, _ = move_of(game, bob)
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(Refused) as refusal:
        services.move_play(game_id=game.pk, user=bob, ply=ply, move="A1 Z9")
    assert refusal.value.code == "illegal"
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.ply, after.state) == (before.version, before.ply, before.state)
    play(game, bob)
    game.refresh_from_db()
    assert game.ply == ply + 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_players_page_opening_holds_the_game_for_its_first_move(make_player):
    """The socket's snapshot read is the copy the first move starts from: one exchange
    instead of the locking read of game, seats and users and two writes in a block."""
    carl, dora = make_player(), make_player()
    warm_up = live_game([carl, dora], first_player=0)
    play(warm_up, carl)
    play(warm_up, dora)  # this connection has the held move's statement prepared
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    snapshot, _presence = consumers._opened(game.pk, ann, 0)
    move = snapshot["legal_moves"][0]
    trips = _round_trips(lambda: services.move_play(game_id=game.pk, user=ann, ply=0, move=move))
    game.refresh_from_db()
    assert trips == 1
    assert game.ply == 1 and game.moves[0]["move"] == move


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_held_move_whose_connection_dropped_fails_as_djangos_error_and_writes_nothing(taken):
    """The one statement goes out through psycopg itself; its failure must still reach
    callers as Django's ``OperationalError`` (what the socket and views handle)."""
    _ann, bob, game = taken
    ply, move = move_of(game, bob)
    connection.ensure_connection()
    backend = connection.connection.info.backend_pid
    with psycopg.connect(POSTGRES_URL.format(connection.settings_dict), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [backend])
    with pytest.raises(OperationalError):
        services.move_play(game_id=game.pk, user=bob, ply=ply, move=move)
    connection.close()
    game.refresh_from_db()
    assert game.ply == ply
    services.move_play(game_id=game.pk, user=bob, ply=ply, move=move)
    game.refresh_from_db()
    assert game.ply == ply + 1
