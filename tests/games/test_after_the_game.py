"""After the game: the rematch, short games aborted rather than lost, the rating change in the
result and why a Wizards' Garden game ended (issue 20)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.history_selectors import replay_frames
from games.models import Game, Seat
from ratings.models import Rating, RatingChange
from tests.games.conftest import (
    at_once,
    every_player_moves,
    finished_against_a_bot,
    first_legal,
    live_game,
    play_out,
    refused,
)

pytestmark = pytest.mark.django_db


def finished(players, **extra) -> Game:
    """A finished game: at 2 players each moves once and the first resigns; at 3-4 it is
    played to its end (a resignation there leaves a bot playing on)."""
    game = live_game(players, first_player=0, **extra)
    if len(players) > 2:
        return play_out(game, players)
    every_player_moves(game, players)
    services.game_resign(game_id=game.pk, user=players[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def rematch_of(user, game: Game) -> dict:
    return selectors.game_state_for(game.pk, user)["rematch"]


def seated(game: Game) -> list:
    return [seat.user for seat in game.seats.select_related("user").order_by("index")]


# --------------------------------------------------------------------------- rematch


def test_both_accept_and_the_rematch_starts_with_the_seats_rotated(make_player):
    ann, bob = make_player(), make_player()
    old = finished([ann, bob], kind="wizards_garden")
    services.rematch_offer(game_id=old.pk, user=ann)
    assert rematch_of(ann, old) == {
        "offered_by": [0],
        "game": None,
        "can_offer": False,
        "can_answer": False,
        "can_cancel": True,
    }
    assert rematch_of(bob, old)["can_answer"] and not rematch_of(bob, old)["can_offer"]
    assert Game.objects.count() == 1

    services.rematch_answer(game_id=old.pk, user=bob, accept=True)
    old.refresh_from_db()
    new = old.rematch
    assert new.status == Game.Status.ACTIVE and seated(new) == [bob, ann]
    assert (new.kind, new.options, new.rated) == (old.kind, old.options, old.rated)
    assert (new.clock_initial, new.clock_increment) == (old.clock_initial, old.clock_increment)
    # The first seat moves first again: this time it is Bob.
    assert new.engine_initial().first_player == old.engine_initial().first_player == 0
    for user in (ann, bob):
        assert rematch_of(user, old)["game"] == new.pk
    refused("rematch_started", services.rematch_offer, game_id=old.pk, user=ann)


def test_four_players_all_accept_and_each_moves_one_seat_on(make_player):
    players = [make_player() for _ in range(4)]
    old = finished(players, options={"players": 4})
    services.rematch_offer(game_id=old.pk, user=players[0])
    for user in players[1:3]:
        services.rematch_answer(game_id=old.pk, user=user, accept=True)
    old.refresh_from_db()
    assert old.rematch is None and old.rematch_offer == [0, 1, 2]
    services.rematch_answer(game_id=old.pk, user=players[3], accept=True)
    old.refresh_from_db()
    assert seated(old.rematch) == players[1:] + players[:1]


def test_a_decline_or_a_cancel_withdraws_the_offer(make_player):
    ann, bob = make_player(), make_player()
    old = finished([ann, bob])
    services.rematch_offer(game_id=old.pk, user=ann)
    services.rematch_answer(game_id=old.pk, user=bob, accept=False)
    assert rematch_of(ann, old)["offered_by"] == [] and rematch_of(ann, old)["can_offer"]
    refused("no_offer", services.rematch_answer, game_id=old.pk, user=ann, accept=True)

    services.rematch_offer(game_id=old.pk, user=bob)
    services.rematch_cancel(game_id=old.pk, user=bob)
    refused("no_offer", services.rematch_answer, game_id=old.pk, user=ann, accept=True)
    refused("no_offer", services.rematch_cancel, game_id=old.pk, user=bob)
    old.refresh_from_db()
    assert old.rematch is None and Game.objects.count() == 1


def test_the_offer_lapses_when_a_player_leaves_the_page(make_player):
    ann, bob = make_player(), make_player()
    old = finished([ann, bob])
    services.rematch_offer(game_id=old.pk, user=ann)
    services.presence_note(game_id=old.pk, user=bob, online=False, seat=1, seat_count=2)
    old.refresh_from_db()
    assert old.rematch_offer == []
    refused("no_offer", services.rematch_answer, game_id=old.pk, user=bob, accept=True)


def test_leaving_a_game_in_play_is_one_statement_and_asks_nothing_of_rematches(make_player):
    """Every page that closes notes its player's sign of life; a game in play has no rematch
    offer to lapse, so nothing more is asked of the database: on PostgreSQL one statement,
    the seat's update returning what the presence frame needs."""
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob])
    with CaptureQueriesContext(connection) as queries:
        services.presence_note(game_id=game.pk, user=bob, online=False, seat=1, seat_count=2)
    statements = [query["sql"] for query in queries.captured_queries]
    # SQLite's UPDATE returns no other table's columns: the game's are a second read.
    assert len(statements) == (1 if connection.vendor == "postgresql" else 2), statements
    seat = Seat.objects.get(game=game, index=1)
    assert seat.last_seen is not None and timezone.now() - seat.last_seen < timedelta(minutes=1)


def test_refusals_say_why_and_change_nothing(make_player):
    ann, bob, carl = make_player(), make_player(), make_player()
    running = live_game([ann, bob])
    refused("not_finished", services.rematch_offer, game_id=running.pk, user=ann)
    old = finished([ann, bob])
    refused("not_seated", services.rematch_offer, game_id=old.pk, user=carl)
    services.rematch_offer(game_id=old.pk, user=ann)
    refused("already_offered", services.rematch_offer, game_id=old.pk, user=ann)
    refused("already_offered", services.rematch_answer, game_id=old.pk, user=ann, accept=True)
    event = finished([ann, bob], in_event=True)
    refused("not_allowed", services.rematch_offer, game_id=event.pk, user=ann)
    assert selectors.game_state_for(event.pk, ann)["rematch"] is None
    old.refresh_from_db()
    assert old.rematch_offer == [0] and Game.objects.count() == 3


def test_a_house_bot_accepts_at_once(make_player):
    ann = make_player()
    old = finished_against_a_bot(ann)
    services.rematch_offer(game_id=old.pk, user=ann)
    old.refresh_from_db()
    bot = seated(old)[1]
    assert old.rematch.status == Game.Status.ACTIVE and seated(old.rematch) == [bot, ann]


@pytest.mark.django_db(transaction=True)
def test_two_players_asking_at_once_start_one_game(make_player):
    ann, bob = make_player(), make_player()
    old = finished([ann, bob])
    outcomes = at_once(lambda user: services.rematch_offer(game_id=old.pk, user=user), [ann, bob])
    old.refresh_from_db()
    # One asked, the other's ask was the acceptance: one new game, whoever was first.
    assert outcomes == ["ok", "ok"] and old.rematch is not None
    assert Game.objects.exclude(pk=old.pk).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_start_one_game(make_player):
    players = [make_player() for _ in range(3)]
    old = finished(players, options={"players": 3})
    services.rematch_offer(game_id=old.pk, user=players[0])
    outcomes = at_once(
        lambda user: services.rematch_answer(game_id=old.pk, user=user, accept=True), players[1:]
    )
    old.refresh_from_db()
    assert outcomes == ["ok", "ok"] and old.rematch is not None
    assert Game.objects.exclude(pk=old.pk).count() == 1


# --------------------------------------------------------------------------- short games


def ratings_now(players) -> list:
    return [
        (rating.user_id, rating.value, rating.games)
        for rating in Rating.objects.filter(user__in=players).order_by("user_id")
    ]


def test_rated_two_player_game_left_before_both_moved_is_aborted(make_player):
    ann, bob = make_player(), make_player()
    before = ratings_now([ann, bob])
    # Resigning before anyone moved, and after only the first player moved.
    game = live_game([ann, bob], rated=True, first_player=0)
    services.game_resign(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.ABORTED, "resign")

    game = live_game([ann, bob], rated=True, first_player=0)
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    services.game_resign(game_id=game.pk, user=bob)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert (game.status, game.termination, game.result) == (Game.Status.ABORTED, "resign", None)
    frame = selectors.game_state_for(game.pk, ann)
    assert frame["status"] == "aborted" and frame["seats"][1]["forfeit"] == "resign"
    assert frame["rematch"] is None
    assert ratings_now([ann, bob]) == before and not RatingChange.objects.exists()


def test_flag_and_gone_claim_before_both_moved_abort_too(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], rated=True, first_player=0)
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.clock_check(game_id=game.pk)
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.ABORTED, "time")

    game = live_game([ann, bob], rated=True, first_player=0)
    ply, move = first_legal(game, ann)
    services.move_play(game_id=game.pk, user=ann, ply=ply, move=move)
    Seat.objects.filter(game=game, user=bob).update(
        last_seen=timezone.now() - timedelta(seconds=61)
    )
    services.game_claim(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.ABORTED, "gone")
    assert not RatingChange.objects.exists()


def test_once_both_have_moved_leaving_loses_and_ratings_move(make_player):
    ann, bob = make_player(), make_player()
    game = finished([ann, bob], rated=True)
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.FINISHED, "resign")
    assert game.result["winners"] == [1]
    assert RatingChange.objects.filter(game=game).count() == 2


def test_casual_and_tournament_games_are_lost_not_aborted(make_player):
    ann, bob = make_player(), make_player()
    casual = live_game([ann, bob], first_player=0)
    services.game_resign(game_id=casual.pk, user=ann)
    event = live_game([ann, bob], rated=True, first_player=0, in_event=True)
    services.game_resign(game_id=event.pk, user=ann)
    for game in (casual, event):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED


def test_four_players_abort_until_every_player_has_moved(make_player):
    players = [make_player() for _ in range(4)]
    before = ratings_now(players)
    game = live_game(players, rated=True, first_player=0, options={"players": 4})
    for user in players[:3]:
        ply, move = first_legal(game, user)
        services.move_play(game_id=game.pk, user=user, ply=ply, move=move)
    # Three have moved; the first resigns: the fourth never played, so nothing counts.
    services.game_resign(game_id=game.pk, user=players[0])
    game.refresh_from_db()
    assert (game.status, game.termination) == (Game.Status.ABORTED, "resign")
    assert ratings_now(players) == before and not RatingChange.objects.exists()

    game = live_game(players, rated=True, first_player=0, options={"players": 4})
    every_player_moves(game, players)
    services.game_resign(game_id=game.pk, user=players[3])
    game.refresh_from_db()
    # Everyone has moved: the resignation stands and a bot plays on.
    assert game.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=game, index=3).forfeit == Seat.Forfeit.RESIGNED


# --------------------------------------------------------------------------- the result


def test_the_scored_result_carries_every_players_rating_change(make_player):
    ann, bob = make_player(), make_player()
    game = finished([ann, bob], rated=True)
    assert selectors.game_state_for(game.pk, ann)["result"] is None
    services.game_score(game_id=game.pk)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    for viewer in (ann, bob, None):
        ratings = selectors.game_state_for(game.pk, viewer)["result"]["ratings"]
        assert [entry["seat"] for entry in ratings] == [0, 1]
        for entry, user in zip(ratings, (ann, bob), strict=True):
            change = changes[user.pk]
            assert entry["before"] == round(change.before) and entry["after"] == round(change.after)
        # Bob won (Ann resigned): his rating went up, hers down.
        assert ratings[1]["change"] > 0 > ratings[0]["change"]
    # Scoring again changes nothing.
    services.game_score(game_id=game.pk)
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_casual_result_has_no_rating_changes(make_player):
    ann, bob = make_player(), make_player()
    game = finished([ann, bob])
    services.game_score(game_id=game.pk)
    assert "ratings" not in selectors.game_state_for(game.pk, ann)["result"]


WIZARDS_END_REASONS = {"the basket is empty", "the board is empty", "the board is full"}


def test_a_wizards_garden_end_says_why_on_the_page_and_in_the_replay(make_player):
    ann, bob = make_player(), make_player()
    game = play_out(live_game([ann, bob], kind="wizards_garden"), [ann, bob])
    assert game.termination == "normal"
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    reason = selectors.game_state_for(game.pk, ann)["final"]["end_reason"]
    assert reason in WIZARDS_END_REASONS
    assert replay_frames(game.record)["end_reason"] == reason
    resigned = finished([ann, bob], kind="wizards_garden")
    assert selectors.game_state_for(resigned.pk, ann)["final"]["end_reason"] is None


def test_a_topiary_end_names_no_reason(make_player):
    ann, bob = make_player(), make_player()
    game = play_out(live_game([ann, bob]), [ann, bob])
    assert selectors.game_state_for(game.pk, ann)["final"]["end_reason"] is None


def test_new_opponent_keeps_a_lobby_clock_and_drops_one_the_lobby_does_not_offer(make_player):
    ann, bob = make_player(), make_player()
    lobby_clock = live_game([ann, bob])
    tournament_clock = live_game([ann, bob], clock_initial=30, clock_increment=1)
    assert "time_control=5%2B3" in selectors.new_opponent_url(lobby_clock.pk)
    link = selectors.new_opponent_url(tournament_clock.pk)
    assert "time_control" not in link and "kind=topiary" in link
