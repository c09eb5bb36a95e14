"""A player's game history: every finished or aborted game, newest first, filtered, paginated."""

import pytest
from django.urls import reverse

from games import history_views
from games.models import Game
from ratings import elo
from tests.ratings.played import make_user, play_game

pytestmark = pytest.mark.django_db


def listed(client, username, **params):
    response = client.get(reverse("games:history", args=[username]), params)
    assert response.status_code == 200
    return [seat.game_id for seat in response.context["page"]]


@pytest.fixture
def games_of_ann():
    """Ann's games: a win, a loss and a draw-free 3-player game, casual and rated, both games."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    games = {
        "topiary_bob": play_game([ann, bob]),
        "topiary_cy_casual": play_game([ann, cy], rated=False, move_seed=2),
        "wizards_bob": play_game([bob, ann], kind="wizards_garden", move_seed=3),
        "three": play_game([ann, bob, cy], move_seed=4),
        "running": play_game([ann, cy], plies=3),
    }
    return ann, games


def test_history_lists_finished_and_aborted_games_newest_first(client, games_of_ann):
    ann, games = games_of_ann
    aborted = play_game([ann, make_user("di")], plies=1)
    Game.objects.filter(pk=aborted.pk).update(status=Game.Status.ABORTED)
    ids = listed(client, "ann")
    finished = [g.pk for g in games.values() if g.status == Game.Status.FINISHED]
    assert set(ids) == {*finished, aborted.pk}
    assert games["running"].pk not in ids
    ended = [
        Game.objects.get(pk=pk).finished_at or Game.objects.get(pk=pk).created_at for pk in ids
    ]
    assert ended == sorted(ended, reverse=True)
    page = client.get(reverse("games:history", args=["ann"])).content.decode()
    for pk in finished:
        assert reverse("games:replay", args=[pk]) in page
    assert reverse("games:replay", args=[aborted.pk]) not in page


def test_history_filters_by_game_rated_and_opponent(client, games_of_ann):
    _, games = games_of_ann
    assert set(listed(client, "ann", game="wizards_garden")) == {games["wizards_bob"].pk}
    assert set(listed(client, "ann", rated="casual")) == {games["topiary_cy_casual"].pk}
    assert set(listed(client, "ann", opponent="BOB")) == {
        games["topiary_bob"].pk,
        games["wizards_bob"].pk,
        games["three"].pk,
    }
    assert set(listed(client, "ann", game="topiary", rated="rated", opponent="cy")) == {
        games["three"].pk
    }


def test_history_filters_by_result_as_the_seats_ranked(client, games_of_ann):
    ann, games = games_of_ann
    seats = {g.pk: g.seats.get(user=ann) for g in games.values() if g.status == "finished"}
    wins = {
        pk
        for pk, seat in seats.items()
        if seat.rank == 1 and seat.game.seats.filter(rank=1).count() == 1
    }
    draws = {pk for pk, seat in seats.items() if seat.rank == 1} - wins
    losses = {pk for pk, seat in seats.items() if seat.rank > 1}
    assert set(listed(client, "ann", result="win")) == wins
    assert set(listed(client, "ann", result="loss")) == losses
    assert set(listed(client, "ann", result="draw")) == draws
    assert wins | draws | losses == set(seats)


def test_rating_change_shows_beside_rated_games(client, games_of_ann):
    ann, _ = games_of_ann
    response = client.get(reverse("games:history", args=["ann"]), {"game": "wizards_garden"})
    (seat,) = response.context["page"]
    other = seat.game.seats.exclude(user=ann).get()
    # Two new players at 1500: K 40, half of it either way, nothing for a draw.
    assert seat.rating_change == pytest.approx(40 * (elo.pair_score(seat.rank, other.rank) - 0.5))
    casual = client.get(reverse("games:history", args=["ann"]), {"rated": "casual"})
    assert "Casual" in casual.content.decode()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"result": "triumph"}, "Select a valid choice"),
        ({"opponent": "nobody-here"}, "No player is called"),
    ],
)
def test_bad_filters_get_a_clear_error(client, games_of_ann, params, message):
    response = client.get(reverse("games:history", args=["ann"]), params)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert response.context["page"] is None


def test_history_of_an_unknown_player_is_404(client, db):
    assert client.get(reverse("games:history", args=["ghost"])).status_code == 404


def test_history_pages_keep_their_filters(client, monkeypatch):
    ann, bob = make_user("ann"), make_user("bob")
    monkeypatch.setattr(history_views, "PAGE_SIZE", 2)
    games = [play_game([ann, bob], kind="wizards_garden", move_seed=i).pk for i in range(5)]
    play_game([ann, bob])
    first = client.get(reverse("games:history", args=["ann"]), {"game": "wizards_garden"})
    assert first.context["page"].paginator.num_pages == 3
    assert "?game=wizards_garden&amp;page=2" in first.content.decode()
    pages = [listed(client, "ann", game="wizards_garden", page=number) for number in (1, 2, 3)]
    assert [pk for page in pages for pk in page] == sorted(games, reverse=True)
