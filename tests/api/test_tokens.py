"""Personal API tokens: made on the settings page, shown once, stored hashed, scoped,
revocable; the browser's session never stands in for a token."""

from __future__ import annotations

import datetime
import hashlib
import re

import pytest
from django.utils import timezone

from api import services
from api.models import ApiToken
from tests.api.conftest import Api
from tests.games.conftest import correspondence_game
from tests.support.players import PASSWORD

pytestmark = pytest.mark.django_db


def _secret_in(page) -> str | None:
    found = re.search(r'id="token-secret"[^>]*>(tpy_[^<]+)<', page.text)
    return found[1] if found else None


def test_a_token_is_shown_once_and_stored_hashed(client, make_player):
    ann = make_player()
    client.force_login(ann)
    form = {"name": "my bot", "scopes": ["read", "play"], "password": PASSWORD}
    response = client.post("/account/tokens/", form)
    # Made, then redirected: a reload of the page that shows the secret posts nothing.
    assert response.status_code == 302 and response.url == "/account/tokens/"
    shown = client.get("/account/tokens/")
    assert shown["Cache-Control"] == "no-store"
    secret = _secret_in(shown)
    token = ApiToken.objects.get(user=ann)
    assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(pk=token.pk).values().first())
    assert token.scopes == ["read", "play"]
    reloaded = client.get("/account/tokens/")
    assert "my bot" in reloaded.text and secret not in reloaded.text
    assert secret not in str(dict(client.session))
    assert ApiToken.objects.filter(user=ann).count() == 1
    assert Api(client, secret).get("/account").json()["username"] == ann.username


def test_making_a_token_needs_the_password(client, make_player):
    ann = make_player()
    client.force_login(ann)
    for password in ("", "not-the-password"):
        response = client.post(
            "/account/tokens/", {"name": "thief", "scopes": ["read"], "password": password}
        )
        assert response.status_code == 400
    assert "That is not your password." in response.text
    # The form comes back as sent, less the password.
    assert 'value="thief"' in response.text and "not-the-password" not in response.text
    assert _secret_in(response) is None
    assert not ApiToken.objects.exists()


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


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": "x", "scopes": ["root"]}, "unknown scopes: root"),
        ({"name": "", "scopes": ["read"]}, "name the token"),
        ({"name": "x", "scopes": ["read"], "expires_on": "tomorrow"}, "is not a date"),
        ({"name": "x", "scopes": ["read"], "expires_on": "2020-01-01"}, "is in the past"),
        ({"name": "x", "scopes": ["read"], "expires_on": "9999-12-31"}, "years ahead"),
    ],
)
def test_a_token_needs_a_name_known_scopes_and_a_coming_expiry(client, make_player, form, message):
    client.force_login(make_player())
    response = client.post("/account/tokens/", {**form, "password": PASSWORD})
    assert response.status_code == 400
    assert message in response.text
    assert not ApiToken.objects.exists()


def test_a_token_works_through_its_last_day_and_then_is_refused_as_revoked(client, make_player):
    ann = make_player()
    client.force_login(ann)
    today = timezone.now().date()
    client.post(
        "/account/tokens/",
        {"name": "short", "scopes": ["read"], "password": PASSWORD, "expires_on": str(today)},
    )
    secret = _secret_in(client.get("/account/tokens/"))
    token = ApiToken.objects.get(user=ann)
    assert token.expires_on == today
    assert Api(client, secret).get("/account").status_code == 200
    listing = client.get("/account/tokens/").text
    assert f"end of {today.day} {today:%b} {today.year}" in listing

    # A day later (the row aged, as the clock would age it).
    ApiToken.objects.filter(pk=token.pk).update(expires_on=today - datetime.timedelta(days=1))
    expired = Api(client, secret).get("/account")
    assert expired.status_code == 401
    assert expired.json()["code"] == "unauthorized"
    revoked, revoked_secret = services.token_create(user=ann, name="gone", scopes=["read"])
    services.token_revoke(user=ann, token_id=revoked.pk)
    assert Api(client, revoked_secret).get("/account").json() == expired.json()
    assert Api(client, secret).get(f"/users/{ann.username}").status_code == 401
    listing = client.get("/account/tokens/").text
    assert "expired" in listing and "Revoke" not in listing


def test_the_session_is_no_token(client, make_player):
    client.force_login(make_player())
    assert client.get("/").status_code == 200
    response = Api(client).get("/account")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthorized"


def test_moving_needs_the_play_scope(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    game = correspondence_game([ann, bob], "wizards_garden", first_player=0)
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
    game = correspondence_game([ann, bob], "wizards_garden", first_player=0)
    _, human_scope = make_token(ann, "read", "play")
    frame = Api(client, human_scope).get(f"/games/{game.pk}").json()
    move = {"ply": 0, "move": frame["legal_steps"][0]}
    refused = Api(client, human_scope).post(f"/games/{game.pk}/move", move)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert Api(client, upgrader).post(f"/games/{game.pk}/move", move).status_code == 200


def test_only_an_account_without_games_becomes_a_bot(client, make_player, make_token):
    ann, bob = make_player(), make_player()
    correspondence_game([ann, bob], "wizards_garden", first_player=0)
    _, secret = make_token(ann, "bot:play")
    response = Api(client, secret).post("/bot/account/upgrade")
    assert response.status_code == 409 and response.json()["code"] == "has_games"
    ann.refresh_from_db()
    assert not ann.is_bot
    _, reader = make_token(make_player(), "read")
    assert Api(client, reader).post("/bot/account/upgrade").json()["code"] == "missing_scope"
