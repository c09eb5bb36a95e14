"""Leaderboards: established players by rating, bots apart, trend, pages, your own rank."""

from datetime import timedelta

import pytest
from django.urls import reverse

from ratings import views
from ratings.models import Rating, RatingChange
from tests.ratings.played import make_user, play_game

pytestmark = pytest.mark.django_db


def rated(name, value, games=30, kind="topiary", bot_level=""):
    user = make_user(name, bot_level=bot_level)
    Rating.objects.create(user=user, kind=kind, value=value, games=games)
    return user


def board(client, kind="topiary", bots=False, **params):
    url = reverse("ratings:bots" if bots else "ratings:board", args=[kind])
    response = client.get(url, params)
    assert response.status_code == 200
    return response, [(e.rank, e.user.username) for e in response.context["page"]]


def test_board_ranks_established_players_and_leaves_out_provisional_ones_and_bots(client):
    rated("ann", 1650)
    rated("bob", 1720)
    rated("cy", 1800, games=19)
    rated("strong-bot", 1900, bot_level="strong")
    rated("wiz", 2000, kind="wizards_garden")
    _, entries = board(client)
    assert entries == [(1, "bob"), (2, "ann")]


def test_bots_have_their_own_board(client):
    rated("ann", 1650)
    rated("strong-bot", 1900, bot_level="strong")
    rated("random-bot", 1300, bot_level="random")
    rated("new-bot", 1500, games=3, bot_level="greedy")
    _, entries = board(client, bots=True)
    assert entries == [(1, "strong-bot"), (2, "random-bot")]


def test_equal_ratings_share_a_rank(client):
    rated("ann", 1600)
    rated("bob", 1600)
    rated("cy", 1500)
    _, entries = board(client)
    assert entries == [(1, "ann"), (1, "bob"), (3, "cy")]


def test_signed_in_player_sees_their_rank_outside_the_top(client, monkeypatch):
    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    for i, name in enumerate(["ann", "bob", "cy", "di"]):
        rated(name, 1900 - 50 * i)
    me = rated("eve", 1610)
    client.force_login(me)
    response, entries = board(client)
    assert [name for _, name in entries] == ["ann", "bob"]
    assert response.context["page"].paginator.num_pages == 3
    page = response.content.decode()
    assert "You are <strong>#5</strong> with 1610" in page
    _, last = board(client, page=3)
    assert last == [(5, "eve")]


def test_provisional_player_is_told_how_many_games_to_go(client):
    rated("ann", 1700)
    me = rated("bob", 1580, games=12)
    client.force_login(me)
    response, entries = board(client)
    assert entries == [(1, "ann")]
    assert "1580?" in response.content.decode()
    assert "(8 to go)" in response.content.decode()


def test_trend_is_the_change_over_the_last_seven_days(client):
    ann, bob = rated("ann", 1600), rated("bob", 1600)
    old, recent = play_game([ann, bob]), play_game([ann, bob], move_seed=1)
    RatingChange.objects.filter(game=old).update(created=old.finished_at - timedelta(days=8))
    response, _ = board(client)
    trend = {entry.user.username: entry.trend for entry in response.context["page"]}
    for user in (ann, bob):
        change = RatingChange.objects.get(game=recent, user=user).change
        assert trend[user.username] == pytest.approx(change)


def test_index_shows_each_game_and_links_to_the_puzzle_boards(client):
    rated("ann", 1650)
    rated("wiz", 1700, kind="wizards_garden")
    response = client.get(reverse("ratings:index"))
    page = response.content.decode()
    assert [b["kind"].value for b in response.context["boards"]] == ["topiary", "wizards_garden"]
    assert [e.user.username for e in response.context["boards"][1]["top"]] == ["wiz"]
    assert 'href="/puzzles/leaderboard/"' in page
    assert reverse("ratings:bots", args=["wizards_garden"]) in page


def test_unknown_board_is_404(client):
    assert client.get("/leaderboards/chess/").status_code == 404
    assert client.get("/leaderboards/puzzle/").status_code == 404


def test_home_page_shows_the_top_topiary_players(client):
    rated("ann", 1650)
    rated("bob", 1720)
    rated("cy", 1900, games=5)
    page = client.get("/").content.decode()
    panel = page.split('id="ratings-home-title"')[1].split("</section>")[0]
    assert panel.index(">bob</a> 1720") < panel.index(">ann</a> 1650")
    assert ">cy</a>" not in panel
