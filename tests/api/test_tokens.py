"""Personal API tokens: made on the settings page, shown once, stored hashed, scoped,
revocable; the browser's session never stands in for a token."""

from __future__ import annotations

import hashlib
import re

import pytest

from api.models import ApiToken
from games import services as game_services
from games.models import Game
from tests.api.conftest import Api

pytestmark = pytest.mark.django_db


def test_a_token_is_shown_once_and_stored_hashed(client, make_player):
    ann = make_player()
    client.force_login(ann)
    response = client.post("/account/tokens/", {"name": "my bot", "scopes": ["read", "play"]})
    assert response.status_code == 200
    secret = re.search(r'id="token-secret">(tpy_[^<]+)<', response.text)[1]
    token = ApiToken.objects.get(user=ann)
    assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(pk=token.pk).values().first())
    assert token.scopes == ["read", "play"]
    listing = client.get("/account/tokens/")
    assert "my bot" in listing.text and secret not in listing.text
    assert Api(client, secret).get("/account").json()["username"] == ann.username


def test_a_revoked_token_stops_working(client, make_player, make_token):
    ann = make_player()
    token, secret = make_token(ann, "read")
    assert Api(client, secret).get("/account").status_code == 200
    client.force_login(ann)
    client.post(f"/account/tokens/{token.pk}/revoke/")
    client.logout()
    response = Api(client, secret).get("/account")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"
    # Even a public read is refused with a revoked token rather than served anonymously.
    assert Api(client, secret).get(f"/users/{ann.username}").status_code == 401


def test_nobody_revokes_another_players_token(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    token, secret = make_token(ann, "read")
    client.force_login(bob)
    client.post(f"/account/tokens/{token.pk}/revoke/")
    assert Api(client, secret).get("/account").status_code == 200


def test_a_token_needs_a_name_and_known_scopes(client, make_player):
    client.force_login(make_player())
    assert client.post("/account/tokens/", {"name": "x", "scopes": ["root"]}).status_code == 400
    assert client.post("/account/tokens/", {"name": "", "scopes": ["read"]}).status_code == 400
    assert not ApiToken.objects.exists()


def test_the_session_is_no_token(client, make_player):
    client.force_login(make_player())
    assert client.get("/").status_code == 200
    response = Api(client).get("/account")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"


def _game(ann, bob) -> Game:
    return game_services.game_create(
        kind="wizards_garden",
        players=[ann, bob],
        options={},
        rated=False,
        clock_initial=None,
        clock_increment=None,
        correspondence_days=3,
        first_player=0,
    )


def test_moving_needs_the_play_scope(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    game = _game(ann, bob)
    _, reader = make_token(ann, "read")
    frame = Api(client, reader).get(f"/games/{game.pk}").json()
    move = {"ply": 0, "move": frame["legal_steps"][0]}
    refused = Api(client, reader).post(f"/games/{game.pk}/move", move)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    game.refresh_from_db()
    assert game.ply == 0
    _, player = make_token(ann, "play")
    assert Api(client, player).post(f"/games/{game.pk}/move", move).status_code == 200
    game.refresh_from_db()
    assert game.ply == 1


def test_a_bot_account_moves_only_with_bot_play(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    _, upgrader = make_token(ann, "bot:play")
    assert Api(client, upgrader).post("/bot/account/upgrade").json()["bot"] is True
    game = _game(ann, bob)
    _, human_scope = make_token(ann, "read", "play")
    frame = Api(client, human_scope).get(f"/games/{game.pk}").json()
    move = {"ply": 0, "move": frame["legal_steps"][0]}
    refused = Api(client, human_scope).post(f"/games/{game.pk}/move", move)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert Api(client, upgrader).post(f"/games/{game.pk}/move", move).status_code == 200


def test_only_an_account_without_games_becomes_a_bot(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    _game(ann, bob)
    _, secret = make_token(ann, "bot:play")
    response = Api(client, secret).post("/bot/account/upgrade")
    assert response.status_code == 409 and response.json()["code"] == "has_games"
    ann.refresh_from_db()
    assert not ann.is_bot
    _, reader = make_token(make_player(), "read")
    assert Api(client, reader).post("/bot/account/upgrade").json()["code"] == "missing_scope"
