"""Quick pairing (games/seeks.py): seeks in a cell pair within rating ranges, cancel, fill
3-4 player tables as people arrive and with bots after the chosen wait, and never pair
anyone twice however many seek at once (on PostgreSQL, threads racing)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import seek_selectors, seeks
from games.models import Game, Seat, Seek
from games.services import Refused
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def seek(user, players=2, **extra):
    params = {"kind": "topiary", "players": players, "time_control": "3+2", "rated": True}
    params.update(extra)
    return seeks.seek_place(user=user, **params)


def rated(user, value: float, kind="topiary"):
    Rating.objects.create(user=user, kind=kind, value=value, games=30)
    return user


def games_of(user) -> list[Game]:
    return list(Game.objects.filter(seats__user=user))


def test_two_players_in_one_cell_are_paired_into_a_started_game(make_player):
    ann, bob = make_player(), make_player()
    assert seek(ann) is None
    assert Seek.objects.filter(user=ann).exists()
    game_id = seek(bob)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ACTIVE and game.rated and game.time_control == "3+2"
    assert {seat.user for seat in game.seats.all()} == {ann, bob}
    assert not Seek.objects.exists()


def test_different_cells_do_not_pair(make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    seek(ann)
    seek(bob, time_control="5+3")
    seek(cat, rated=False)
    assert not Game.objects.exists()
    waiting = seek_selectors.seeks_open(None)["waiting"]
    assert waiting == {
        "topiary:2:3+2:rated": 1,
        "topiary:2:5+3:rated": 1,
        "topiary:2:3+2:casual": 1,
    }


def test_players_within_each_others_range_are_paired(make_player):
    ann = rated(make_player(), 1600)
    bob = rated(make_player(), 1750)
    seek(ann, rating_range=200)
    assert seek(bob, rating_range=200) is not None


def test_a_player_outside_the_range_is_not_paired(make_player):
    ann = rated(make_player(), 1600)
    far = rated(make_player(), 1900)
    near = rated(make_player(), 1650)
    seek(ann, rating_range=200)
    assert seek(far) is None  # far accepts anyone, but ann's range stops at 1800
    assert not Game.objects.exists()
    game_id = seek(near, rating_range=100)
    assert {seat.user for seat in Game.objects.get(pk=game_id).seats.all()} == {ann, near}
    assert list(Seek.objects.values_list("user", flat=True)) == [far.pk]


def test_the_range_works_both_ways(make_player):
    ann = rated(make_player(), 1600)
    strong = rated(make_player(), 1950)
    seek(ann)  # anyone
    assert seek(strong, rating_range=100) is None  # but strong wants 1850-2050
    assert not Game.objects.exists()


def test_the_oldest_suitable_seek_is_paired_first(make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    seek(ann)
    seek(bob, time_control="5+3")
    seek(bob)  # bob moved to ann's cell: replaced, and paired with her
    assert Seek.objects.filter(user=bob).count() == 0
    assert len(games_of(ann)) == 1 and games_of(ann) == games_of(bob)
    assert seek(cat) is None


def test_a_player_in_a_live_game_cannot_seek_another_live_one(make_player):
    ann, bob = make_player(), make_player()
    seek(ann)
    seek(bob)
    with pytest.raises(Refused) as info:
        seek(ann, time_control="5+3")
    assert info.value.code == "playing"
    assert seek(ann, time_control="1d") is None  # days per move: as many as they like


def test_cancel_withdraws_the_seek(make_player):
    ann, bob = make_player(), make_player()
    seek(ann, channel="ann-lobby")
    assert not seeks.seek_cancel(user=ann, channel="another-page")
    assert seeks.seek_cancel(user=ann, channel="ann-lobby")
    assert seek(bob) is None
    assert not Game.objects.exists()
    assert not seeks.seek_cancel(user=ann)


def test_bad_seeks_are_refused_and_change_nothing(make_player):
    ann = make_player()
    for params in (
        {"kind": "chess"},
        {"players": 3, "kind": "wizards_garden"},
        {"players": 5},
        {"time_control": "2+1"},
        {"rated": "yes"},
        {"rating_range": 150},
        {"bots_after": 30},  # bots only top up 3-4 player tables
        {"players": 3, "bots_after": 7},
    ):
        with pytest.raises(Refused) as info:
            seek(ann, **params)
        assert info.value.code == "bad_request", params
    with pytest.raises(Refused) as info:
        seeks.seek_place(user=None, kind="topiary", players=2, time_control="3+2")
    assert info.value.code == "not_signed_in"
    assert not Seek.objects.exists()


def test_a_four_player_seek_fills_as_players_arrive(make_player):
    people = [make_player() for _ in range(4)]
    for person in people[:3]:
        assert seek(person, players=4) is None
    assert seek_selectors.seeks_open(None)["waiting"] == {"topiary:4:3+2:rated": 3}
    game_id = seek(people[3], players=4)
    game = Game.objects.get(pk=game_id)
    assert game.seat_count == 4 and game.status == Game.Status.ACTIVE
    assert {seat.user for seat in game.seats.all()} == set(people)


def age(user, seconds: int) -> None:
    Seek.objects.filter(user=user).update(created_at=timezone.now() - timedelta(seconds=seconds))


def test_bots_top_up_a_four_player_seek_after_the_chosen_wait(make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    seek(ann, players=4, bots_after=30)
    seek(bob, players=4, bots_after=60)
    seek(cat, players=4)  # people only: waits on
    # Not yet: ann's wait has not passed (rated players would otherwise meet bots early).
    age(ann, 20)
    assert seeks.seeks_top_up()["topped_up"] == 0
    age(ann, 31)
    assert seeks.seeks_top_up()["topped_up"] == 1
    game = games_of(ann)[0]
    seated = [seat.user for seat in Seat.objects.filter(game=game).select_related("user")]
    assert {ann, bob} < set(seated) and cat not in seated
    assert sum(user.is_bot for user in seated) == 2
    assert game.status == Game.Status.ACTIVE
    assert list(Seek.objects.values_list("user", flat=True)) == [cat.pk]
    # Safe to run twice: nothing more is due.
    assert seeks.seeks_top_up()["topped_up"] == 0


def test_a_seek_waiting_for_people_is_never_given_bots(make_player):
    ann = make_player()
    seek(ann, players=4)
    age(ann, 25 * 60)
    assert seeks.seeks_top_up()["topped_up"] == 0
    age(ann, 31 * 60)  # very old seeks are dropped: their page may be long gone
    assert seeks.seeks_top_up()["dropped"] == 1
    assert not Seek.objects.exists() and not Game.objects.exists()


def test_seeks_show_ratings_and_only_the_placing_page_calls_one_its_own(make_player):
    ann = rated(make_player(), 1712)
    seek(ann, rating_range=300, channel="ann-lobby")
    frame = seek_selectors.seeks_open(ann, "ann-lobby")
    (shown,) = frame["seeks"]
    assert shown["username"] == ann.username and shown["rating"] == "1712"
    assert shown["range"] == 300 and shown["yours"]
    assert frame["mine"]["cell"] == "topiary:2:3+2:rated"
    assert seek_selectors.seeks_open(ann, "another-page")["mine"] is None
    assert seek_selectors.seeks_open(make_player())["seeks"][0]["rating"] == "1712"


def test_open_tables_show_their_players_ratings(make_player):
    from games import selectors, services

    ann = rated(make_player(), 1640)
    services.table_create(
        user=ann,
        kind="topiary",
        players=3,
        rated=True,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    (table,) = selectors.tables_open(None)
    assert [seat["rating"] for seat in table["seats"]] == ["1640", None, None]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_many_simultaneous_seeks_pair_everyone_at_most_once(make_player, postgres_url):
    """Twelve players seek the same two cells at the same instant, twice over (each
    then moves to the other cell, refused once paired: one live game at a time): every
    game has two distinct players, nobody is in two games, and every seek left waits
    alone in its cell."""
    people = [make_player() for _ in range(12)]
    barrier = threading.Barrier(len(people))
    errors: list = []

    def seek_twice(index: int, person) -> None:
        try:
            barrier.wait()
            first, second = ("3+2", "5+3") if index % 2 else ("5+3", "3+2")
            try:
                seek(person, time_control=first)
                seek(person, time_control=second)
            except Refused as refusal:
                errors.append(refusal.code)
        except Exception as error:  # reported below with the test's assertion
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=seek_twice, args=(i, person)) for i, person in enumerate(people)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(errors) <= {"playing"}
    seats = list(Seat.objects.values_list("game_id", "user_id"))
    per_user: dict[int, int] = {}
    for _, user_id in seats:
        per_user[user_id] = per_user.get(user_id, 0) + 1
    assert all(count == 1 for count in per_user.values()), per_user
    games = Game.objects.all()
    for game in games:
        assert len({seat.user_id for seat in game.seats.all()}) == 2
    waiting = list(Seek.objects.values_list("user_id", "cell"))
    # Nobody both plays and waits; no cell holds two seekers who should have met.
    assert not {user_id for user_id, _ in waiting} & set(per_user)
    assert len({cell for _, cell in waiting}) == len(waiting)
    assert len(per_user) + len(waiting) == len(people)
