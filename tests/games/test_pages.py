"""The lobby and game pages, and the HTTP fallback through the same services."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Game
from tests.games.conftest import live_game

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_open_tables_and_creates_one(client, make_player):
    ann, bob = make_player(), make_player()
    client.force_login(ann)
    response = client.post(
        reverse("games:table_new"),
        {"kind": "topiary", "players": 3, "time_control": "5+3", "rated": "on"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:game", args=[game.pk])
    assert game.seat_count == 3 and game.clock_initial == 300 and game.rated
    client.force_login(bob)
    page = client.get(reverse("games:lobby")).content.decode()
    assert f'data-table="{game.pk}"' in page and "5+3" in page
    client.post(reverse("games:action", args=[game.pk, "join"]))
    assert game.seats.filter(user=bob).exists()


def test_a_bad_table_form_says_why_and_creates_nothing(client, make_player):
    client.force_login(make_player())
    response = client.post(
        reverse("games:table_new"), {"kind": "wizards_garden", "players": 4, "time_control": "5+3"}
    )
    assert response.status_code == 200 and b"2 players" in response.content
    assert not Game.objects.exists()


def test_play_bots_now_starts_a_game(client, make_player):
    client.force_login(make_player())
    response = client.post(
        reverse("games:bot_game_new"),
        {"kind": "topiary", "players": 4, "time_control": "1d", "level": "random"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == Game.Status.ACTIVE
    assert [seat.user.is_bot for seat in game.seats.all()] == [False, True, True, True]


def test_the_game_page_embeds_only_the_viewers_view(client, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    full = game.state
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    frame = json.loads(page.split('id="frame" type="application/json">')[1].split("</script>")[0])
    assert frame["you"] == 1 and frame["position"]["hands"][1] == full["hands"][1]
    for tile in full["hands"][0] + full["box"]:
        assert f'"{tile}"' not in page


def test_state_json_and_the_http_move_fallback(client, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    client.force_login(ann)
    state = client.get(reverse("games:state", args=[game.pk])).json()
    url = reverse("games:move", args=[game.pk])
    stale = client.post(
        url, {"ply": 4, "move": state["legal_moves"][0]}, content_type="application/json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    garbage = client.post(url, "not json", content_type="application/json")
    assert garbage.status_code == 400
    moved = client.post(
        url, {"ply": 0, "move": state["legal_moves"][0]}, content_type="application/json"
    )
    assert moved.status_code == 200 and moved.json()["ply"] == 1
    client.force_login(bob)
    assert client.get(reverse("games:state", args=[game.pk])).json()["legal_moves"]


def test_resign_over_http(client, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="wizards_garden")
    client.force_login(ann)
    client.post(reverse("games:action", args=[game.pk, "resign"]))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "resign"


def test_a_take_in_two_steps_over_the_http_fallback(client, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    client.force_login(ann)
    state = client.get(reverse("games:state", args=[game.pk])).json()
    step = next(s for s in state["legal_steps"] if " " in s and "=" not in s)
    url = reverse("games:move", args=[game.pk])
    taken = client.post(url, {"ply": 0, "move": step}, content_type="application/json").json()
    took = taken["pending"]["took"]
    assert taken["ply"] == 1 and taken["to_move"] == 0 and took in taken["position"]["hands"][0]
    wrong = client.post(url, {"ply": 1, "move": "c5:S"}, content_type="application/json")
    assert wrong.status_code == 409 and wrong.json()["code"] == "illegal"
    planted = client.post(url, {"ply": 1, "move": "=*"}, content_type="application/json").json()
    assert planted["ply"] == 2 and planted["pending"] is None and planted["to_move"] == 1
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    frame = json.loads(page.split('id="frame" type="application/json">')[1].split("</script>")[0])
    assert [entry["move"] for entry in frame["moves"]] == [step, f"={took}"]
