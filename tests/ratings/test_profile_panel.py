"""The ratings panel on a player's profile."""

import re

import pytest
from django.urls import reverse

from ratings.models import Rating
from ratings.services import ratings_apply_game
from tests.ratings.played import make_user, play_game, rank_seats

pytestmark = pytest.mark.django_db


def panel(client, user) -> str:
    page = client.get(reverse("accounts:profile", args=[user.username])).content.decode()
    return page.split('id="ratings-panel-title"')[1].split("</section>")[0]


def row(html: str, kind: str) -> str:
    return html.split(f'data-kind="{kind}"')[1].split('<div class="rating-row"')[0]


def test_panel_shows_provisional_ratings_with_a_question_mark_and_a_chart(client):
    ann, bob = make_user("ann"), make_user("bob")
    games = [play_game([ann, bob], move_seed=i) for i in range(3)]
    html = panel(client, ann)
    topiary = row(html, "topiary")
    rating = Rating.objects.get(user=ann, kind="topiary")
    assert f"{round(rating.value)}?" in topiary
    points = re.search(r'<polyline class="line" points="([^"]+)"', topiary)[1].split()
    assert len(points) == 4  # the start and one point per rated game
    wins = sum(
        g.seats.get(user=ann).rank == 1 and g.seats.filter(rank=1).count() == 1 for g in games
    )
    assert "<dt>Games played</dt><dd>3</dd>" in topiary
    assert f"<dt>Win rate</dt><dd>{round(100 * wins / 3)}%</dd>" in topiary
    assert "No rated games yet" in row(html, "wizards_garden")
    assert "1500?" in row(html, "puzzle")
    assert reverse("games:history", args=["ann"]) in html


def test_established_rating_has_no_question_mark(client):
    ann = make_user("ann")
    Rating.objects.create(user=ann, kind="wizards_garden", value=1712.4, games=20)
    wizards = row(panel(client, ann), "wizards_garden")
    assert '<p class="rating-value">1712</p>' in wizards


def test_best_win_is_the_highest_rated_opponent_beaten(client):
    ann = make_user("ann")
    for name, value, ann_rank in [("low", 1400, 1), ("mid", 1600, 1), ("high", 1800, 2)]:
        opponent = make_user(name)
        Rating.objects.create(user=opponent, kind="wizards_garden", value=value, games=30)
        game = play_game([ann, opponent], kind="wizards_garden", score=False)
        rank_seats(game, [ann_rank, 3 - ann_rank])
        ratings_apply_game(game=game)
    wizards = row(panel(client, ann), "wizards_garden")
    assert "<dt>Best win</dt><dd><a" in wizards
    assert ">mid</a> (1600)" in wizards


def test_no_best_win_before_beating_anyone(client):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_game([ann, bob], score=False)
    rank_seats(game, [2, 1])
    ratings_apply_game(game=game)
    assert "<dt>Best win</dt><dd>–</dd>" in row(panel(client, ann), "topiary")
