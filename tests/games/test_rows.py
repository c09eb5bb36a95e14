"""A page's arrival reads its game, seats and players in one statement, as the ORM would."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rows, selectors, services, thinking
from games.models import Game, Seat
from tests.games.conftest import bot_to_move, live_game, play_out

pytestmark = pytest.mark.django_db


def _everything(model) -> dict:
    """Every column's value as the model holds it (``model_to_dict`` leaves some out)."""
    return {field.attname: getattr(model, field.attname) for field in model._meta.concrete_fields}


def _as_the_orm_reads(game_id: int) -> tuple[Game, list[Seat]]:
    game = Game.objects.get(pk=game_id)
    return game, list(game.seats.select_related("user").order_by("index"))


def test_a_game_played_out_reads_as_the_orm_reads_it(make_player):
    """JSON columns (options, state, initial, moves), times, the seats' clocks and their
    users: every value the same, in the same types."""
    ann, bob = make_player(), make_player()
    game = play_out(live_game([ann, bob], first_player=1), [ann, bob])
    expected_game, expected_seats = _as_the_orm_reads(game.pk)
    read_game, read_seats = rows.game_with_seats(game.pk)
    assert _everything(read_game) == _everything(expected_game)
    assert read_game.status == Game.Status.FINISHED and len(read_game.moves) > 10
    assert [_everything(seat) for seat in read_seats] == [
        _everything(seat) for seat in expected_seats
    ]
    assert [_everything(seat.user) for seat in read_seats] == [
        _everything(seat.user) for seat in expected_seats
    ]


def test_an_open_table_reads_its_empty_seats_and_asks_nothing_more(
    make_player, django_assert_num_queries
):
    """A seat nobody took yet has no user; a seat's user and game come with the one
    statement, and so does the frame built from them."""
    ann = make_player()
    table = services.table_create(
        user=ann,
        kind="topiary",
        players=3,
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    with django_assert_num_queries(1):
        game, seats = rows.game_with_seats(table.pk)
        assert [seat.user.username if seat.user else None for seat in seats] == [
            ann.username,
            None,
            None,
        ]
        assert all(seat.game is game for seat in seats)
    with django_assert_num_queries(1):
        frame = selectors.game_state_for(table.pk, ann)
    assert frame["status"] == "open" and frame["you"] == 0


def test_no_game_reads_as_none_and_a_move_for_it_is_refused(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob])
    missing = game.pk + 1000
    assert rows.game_with_seats(missing) is None
    assert rows.seat_users(missing) == []
    with pytest.raises(Game.DoesNotExist):
        selectors.game_state_for(missing, ann)
    with pytest.raises(services.Refused) as refusal:
        services.game_resign(game_id=missing, user=ann)
    assert refusal.value.code == "not_found"


def test_who_sits_where(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    expected = list(game.seats.order_by("index").values_list("index", "user_id"))
    assert rows.seat_users(game.pk) == expected == [(0, ann.pk), (1, bob.pk)]


@pytest.mark.django_db(transaction=True)
def test_a_locked_read_sees_the_seats_the_writer_it_waited_for_committed(make_player):
    """A move that waits for the game's lock must then read the seats as the writer it
    waited for left them (a flag, a clock), not as they were when it began to wait."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite has one writer at a time")
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    locked = threading.Event()
    read: dict[str, int] = {}

    def writer() -> None:
        try:
            with transaction.atomic():
                rows.game_with_seats(game.pk, lock=True)
                locked.set()
                Seat.objects.filter(game=game, index=1).update(clock_ms=1234)
                time.sleep(0.5)  # the reader is waiting for the lock meanwhile
        finally:
            connection.close()

    def reader() -> None:
        locked.wait(10)
        try:
            with transaction.atomic():
                _, seats = rows.game_with_seats(game.pk, lock=True)
                read["clock"] = seats[1].clock_ms
        finally:
            connection.close()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert read == {"clock": 1234}


def test_a_bot_reads_its_game_in_one_statement_before_it_thinks(make_player, monkeypatch):
    """The bot's turn reads the game unlocked to think (the strong bot thinks for a
    second), then under the lock to play: the first read is one statement too."""
    game = bot_to_move(make_player(), level="greedy", kind="topiary")
    read_before_thinking = []

    def think_here(function, *args):
        # The embedded runner's hook for a thinking process: here, the thinking starts.
        read_before_thinking.append(len(statements.captured_queries))
        return function(*args)

    monkeypatch.setattr(thinking, "offload", think_here)
    with CaptureQueriesContext(connection) as statements:
        played = services.bot_move_play(game_id=game.pk, ply=game.ply)
    assert played is not None and played.ply == game.ply + 1
    assert read_before_thinking == [1]
