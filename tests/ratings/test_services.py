"""Ratings move once per finished rated game and once per puzzle attempt."""

import pytest

from games.models import Game
from games.services import game_score
from ratings import elo
from ratings.models import Rating, RatingChange
from ratings.services import rating_record_puzzle, ratings_apply_game
from tests.ratings.played import make_user, play_game, rank_seats
from tests.support.threads import at_once

pytestmark = pytest.mark.django_db


def rating(user, kind="topiary"):
    return Rating.objects.get(user=user, kind=kind)


def test_scoring_a_two_player_game_moves_both_ratings_by_standard_elo():
    ann, bob = make_user("ann"), make_user("bob")
    game = play_game([ann, bob])
    winner, loser = sorted(game.seats.all(), key=lambda seat: seat.rank)
    assert (winner.rank, loser.rank) == (1, 2)
    assert rating(winner.user).value == 1520.0
    assert rating(loser.user).value == 1480.0
    assert rating(loser.user).games == rating(winner.user).games == 1
    changes = RatingChange.objects.filter(game=game)
    assert {(c.user_id, c.before, c.after, c.kind) for c in changes} == {
        (winner.user_id, 1500, 1520, "topiary"),
        (loser.user_id, 1500, 1480, "topiary"),
    }


def test_running_the_scoring_again_changes_nothing():
    ann, bob = make_user("ann"), make_user("bob")
    game = play_game([ann, bob])
    values = {r.user_id: (r.value, r.games) for r in Rating.objects.all()}
    first = {c.pk for c in RatingChange.objects.all()}
    again = ratings_apply_game(game=game)
    game_score(game_id=game.pk)
    assert {c.pk for c in again} == first
    assert {r.user_id: (r.value, r.games) for r in Rating.objects.all()} == values
    assert RatingChange.objects.count() == 2


def test_four_player_topiary_splits_k_over_the_opponents():
    players = [make_user(name) for name in ("ann", "bob", "cy", "di")]
    game = play_game(players)
    changes = {c.user_id: c.change for c in RatingChange.objects.filter(game=game)}
    for seat in game.seats.all():
        beaten = 4 - seat.rank
        assert changes[seat.user_id] == pytest.approx(40 / 3 * (beaten - 1.5))


def test_shared_victory_is_a_draw_between_the_winners():
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = play_game([ann, bob, cy], options={"tiebreak": "share"}, score=False)
    rank_seats(game, [1, 1, 3])
    changes = {c.user_id: c for c in ratings_apply_game(game=game)}
    assert changes[ann.pk].score == changes[bob.pk].score == 0.75
    assert changes[ann.pk].after == changes[bob.pk].after == 1510.0
    assert changes[cy.pk].after == 1480.0


def test_k_falls_to_20_once_twenty_games_are_rated():
    ann, bob = make_user("ann"), make_user("bob")
    Rating.objects.create(user=ann, kind="topiary", games=19)
    Rating.objects.create(user=bob, kind="topiary", games=19)
    first, second = play_game([ann, bob]), play_game([ann, bob], move_seed=1)
    assert {c.k for c in RatingChange.objects.filter(game=first)} == {40}
    assert {c.k for c in RatingChange.objects.filter(game=second)} == {20}
    assert not rating(ann).provisional and rating(ann).display == f"{round(rating(ann).value)}"
    assert Rating(games=19).display == "1500?"


def test_wizards_garden_has_its_own_rating_and_bots_are_rated():
    ann, bot = make_user("ann"), make_user("greedy-bot", bot_level="greedy")
    play_game([ann, bot], kind="wizards_garden")
    assert {r.kind for r in Rating.objects.filter(user=bot)} == {"wizards_garden"}
    assert rating(ann, "wizards_garden").games == 1
    assert not Rating.objects.filter(kind="topiary").exists()


def test_casual_unfinished_and_aborted_games_move_nothing():
    ann, bob = make_user("ann"), make_user("bob")
    casual = play_game([ann, bob], rated=False)
    running = play_game([ann, bob], plies=5)
    aborted = play_game([ann, bob], plies=1)
    Game.objects.filter(pk=aborted.pk).update(status=Game.Status.ABORTED)
    for game in (casual, running, aborted):
        assert ratings_apply_game(game=game) == []
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_game_without_ranks_is_refused_and_changes_nothing():
    game = play_game([make_user("ann"), make_user("bob")], score=False)
    with pytest.raises(ValueError, match="no rank"):
        ratings_apply_game(game=game)
    assert not RatingChange.objects.exists()


def test_puzzle_attempt_moves_the_puzzle_rating_once_per_puzzle():
    ann = make_user("ann")
    change = rating_record_puzzle(
        user=ann, puzzle_key="2026-11-22", puzzle_rating=1700, solved=True
    )
    assert (change.before, round(change.after, 2)) == (1500, 1530.39)
    assert change.expected == pytest.approx(elo.expected_score(1500, 1700))
    again = rating_record_puzzle(
        user=ann, puzzle_key="2026-11-22", puzzle_rating=1200, solved=False
    )
    assert again.pk == change.pk and again.after == change.after
    assert rating(ann, "puzzle").games == 1
    rating_record_puzzle(user=ann, puzzle_key="2026-11-23", puzzle_rating=1500, solved=False)
    assert rating(ann, "puzzle").games == 2


@pytest.mark.parametrize(
    ("key", "puzzle_rating", "message"),
    [("", 1500, "puzzle_key"), ("x" * 101, 1500, "longer"), ("p", float("nan"), "finite")],
)
def test_bad_puzzle_input_is_refused_and_changes_nothing(key, puzzle_rating, message):
    ann = make_user("ann")
    with pytest.raises(ValueError, match=message):
        rating_record_puzzle(user=ann, puzzle_key=key, puzzle_rating=puzzle_rating, solved=True)
    assert not Rating.objects.exists()


def run_at_once(calls):
    """Run the calls in threads released together; each thread has its own connection."""
    assert [error for _, error in at_once(lambda call: call(), calls) if error] == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_calls_for_one_game_apply_it_once(postgres_url):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_game([ann, bob], score=False)
    rank_seats(game, [2, 1])
    run_at_once([lambda: ratings_apply_game(game=game)] * 4)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert (rating(ann).value, rating(bob).value) == (1480.0, 1520.0)
    assert {r.games for r in Rating.objects.all()} == {1}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_scoring_tasks_rate_the_game_once(postgres_url):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_game([ann, bob], score=False)
    run_at_once([lambda: game_score(game_id=game.pk)] * 3)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert sorted(r.value for r in Rating.objects.all()) == [1480.0, 1520.0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_games_with_a_shared_player_both_count(postgres_url):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    games = [play_game([ann, bob], score=False), play_game([ann, cy], score=False)]
    for game in games:
        rank_seats(game, [1, 2])
    run_at_once([lambda game=game: ratings_apply_game(game=game) for game in games])
    first, second = RatingChange.objects.filter(user=ann).order_by("id")
    assert second.before == first.after
    assert rating(ann).value == second.after and rating(ann).games == 2


def test_house_bots_start_from_their_levels_measured_strength_and_people_from_1500():
    from accounts.services import bot_ensure
    from engine.bots import measured_ratings
    from ratings.selectors import start_ratings

    person, outside = make_user("person"), make_user("outsider", bot_level="api")
    house = {level: bot_ensure(level=level) for level in ("random", "greedy", "strong", "master")}
    ids = [person.pk, outside.pk, *(bot.pk for bot in house.values())]
    for kind in ("topiary", "wizards_garden"):
        starts = start_ratings(user_ids=ids, kind=kind)
        assert starts[person.pk] == starts[outside.pk] == elo.INITIAL_RATING
        for level, bot in house.items():
            assert starts[bot.pk] == measured_ratings(level)[kind]
        assert starts[house["strong"].pk] > starts[house["greedy"].pk] > starts[house["random"].pk]
    assert set(start_ratings(user_ids=ids, kind="puzzle").values()) == {1500.0}


def test_an_unplayed_house_bot_is_shown_and_paired_at_its_measured_strength(client):
    from accounts.services import bot_ensure
    from engine.bots import measured_ratings
    from ratings.selectors import rating_of, rating_shown, rating_values

    master, person = bot_ensure(level="master"), make_user("newcomer")
    measured = measured_ratings("master")["topiary"]
    assert rating_of(user=master, kind="topiary").value == measured
    assert rating_of(user=person, kind="topiary").value == elo.INITIAL_RATING
    assert rating_values(user_ids=[master.pk, person.pk], kind="topiary") == {
        master.pk: measured,
        person.pk: elo.INITIAL_RATING,
    }
    assert rating_shown(user_ids=[master.pk], kind="topiary")[master.pk][1] == f"{measured}?"
    # Its profile shows where its first game will start it, not 1500.
    page = client.get(f"/@/{master.username}/").content.decode()
    assert f"{measured}?" in page
