"""Closing an account: for good, with its history kept under its name."""

import pytest
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.test import Client
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import services
from accounts.models import Preferences, User
from games import services as game_services
from games.models import Game, Seat
from tests.games.conftest import every_player_moves, live_game
from tests.support.two_factor import code_for
from tests.tournaments.conftest import make_tournament
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
CLOSE = "/account/close/"


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


@pytest.fixture
def bob():
    return services.user_register(username="Bob", email="bob@example.com", password=PASSWORD)


def open_table(user, **extra) -> Game:
    return game_services.table_create(
        user=user,
        kind="topiary",
        rated=False,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
        **extra,
    )


def test_the_page_explains_and_a_wrong_password_changes_nothing(client, alice):
    client.force_login(alice)
    page = client.get(CLOSE).content.decode()
    assert "cannot be undone" in page
    response = client.post(CLOSE, {"password": "wrong"})
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.is_active and alice.closed_at is None


def test_closing_resigns_cancels_and_signs_out_everywhere(client, alice, bob):
    # Rated, and every player has moved once (leaving it earlier aborts it).
    running = every_player_moves(live_game([alice, bob], rated=True, first_player=0), [alice, bob])
    mine = open_table(alice)
    challenge = open_table(bob, invited=alice)
    services.preferences_save(user=alice, changes={"theme": "dark"})
    other_device = Client()
    other_device.force_login(alice)
    client.force_login(alice)

    response = client.post(CLOSE, {"password": PASSWORD}, follow=True)
    assert "Your account is closed." in response.content.decode()
    assert response.context["user"].is_anonymous

    alice.refresh_from_db()
    assert alice.username == "Alice" and not alice.is_active and alice.closed_at
    assert alice.email == "" and not alice.has_usable_password()
    assert not Preferences.objects.filter(user=alice).exists()
    # Every session of hers is gone, the other device's included.
    assert other_device.get("/account/settings/").context["user"].is_anonymous
    assert not any(
        s.get_decoded().get("_auth_user_id") == str(alice.pk) for s in Session.objects.all()
    )

    running.refresh_from_db()
    assert running.status == Game.Status.FINISHED
    assert Seat.objects.get(game=running, user=alice).forfeit == Seat.Forfeit.RESIGNED
    assert not Game.objects.filter(pk=mine.pk).exists()
    assert not Game.objects.filter(pk=challenge.pk).exists()

    # She cannot sign in, her name stays taken, her profile says closed.
    login = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert login.status_code == 200
    with pytest.raises(ValidationError, match="taken"):
        services.user_register(username="alice", email="new@example.com", password=PASSWORD)
    profile = client.get("/@/Alice/")
    assert profile.status_code == 200
    assert "Account closed" in profile.content.decode()
    assert User.objects.filter(username="Alice").count() == 1


def test_closing_leaves_an_upcoming_tournament(client, alice, bob):
    tournament = make_tournament(bob)
    tournament_services.tournament_join(tournament_id=tournament.pk, user=alice)
    client.force_login(alice)
    assert client.post(CLOSE, {"password": PASSWORD}).status_code == 302
    assert not tournament.entries.filter(user=alice).exists()


def test_with_two_factor_the_code_is_needed_too(client, alice):
    services.two_factor_start(user=alice)
    device = TOTPDevice.objects.get(user=alice)
    codes = services.two_factor_confirm(user=alice, password=PASSWORD, code=code_for(device))
    client.force_login(alice)
    assert "Two-factor code" in client.get(CLOSE).content.decode()
    refused = client.post(CLOSE, {"password": PASSWORD, "code": ""})
    assert refused.status_code == 400
    alice.refresh_from_db()
    assert alice.is_active
    assert client.post(CLOSE, {"password": PASSWORD, "code": codes[1]}).status_code == 302
    alice.refresh_from_db()
    assert not alice.is_active
    assert not StaticToken.objects.filter(device__user=alice).exists()
