"""A push that fails after the commit (Redis unreachable) costs nothing but the push."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client

from games import selectors, services
from games.models import Game
from tests.games.conftest import bot_to_move, live_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_move_over_http_stands_and_answers_200_when_its_push_fails(
    make_player, unreachable_channel_layer, caplog
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    move = selectors.game_state_for(game.pk, ann)["legal_moves"][0]
    with caplog.at_level(logging.WARNING, logger="games.live"):
        response = signed_in(ann).post(
            f"/game/{game.pk}/move",
            json.dumps({"ply": 0, "move": move}),
            content_type="application/json",
        )
    assert response.status_code == 200 and response.json()["ply"] == 1
    game.refresh_from_db()
    assert game.ply == 1 and game.moves[0]["move"] == move
    assert "clients will resync" in caplog.text


def test_a_resignation_stands_when_its_push_fails(make_player, unreachable_channel_layer):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    response = signed_in(bob).post(f"/game/{game.pk}/resign", HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["status"] == "finished"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "resign"


def test_a_bot_move_stands_when_its_push_fails(make_player, unreachable_channel_layer):
    game = bot_to_move(make_player())
    services.bot_move_play(game_id=game.pk, ply=game.ply)
    played = game.ply
    game.refresh_from_db()
    assert game.ply == played + 1 and not game.bot_to_move
