"""Login throttling against password guessing, through the real login page and cache."""

import pytest
from django.test import Client

from accounts import services
from accounts.models import User
from tests.accounts.conftest import fresh_address

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
LOGIN = "/accounts/login/"
THROTTLED = "Too many failed attempts to log in as alice. Wait 15 minutes and try again."


@pytest.fixture(autouse=True)
def limit(settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW = 900
    return 3


@pytest.fixture
def alice():
    return services.user_register(username="alice", email="alice@example.com", password=PASSWORD)


def attempt(client: Client, password: str, username: str = "alice") -> str:
    return client.post(LOGIN, {"username": username, "password": password}).content.decode()


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_after_the_limit_even_the_right_password_is_refused_with_a_clear_message(
    client, alice, limit
):
    for _ in range(limit):
        page = attempt(client, "wrong-guess-1")
        assert "That username and password do not match." in page
        assert THROTTLED not in page
    page = attempt(client, PASSWORD)
    assert THROTTLED in page
    assert not logged_in(client)


def test_throttling_ignores_the_case_of_the_username(client, alice, limit):
    for name in ["alice", "ALICE", "Alice"][:limit]:
        attempt(client, "wrong-guess-1", username=name)
    assert "Too many failed attempts to log in as aLiCe." in attempt(
        client, PASSWORD, username="aLiCe"
    )


def test_a_guesser_elsewhere_does_not_lock_the_player_out(client, alice, limit):
    for _ in range(limit):
        attempt(client, "wrong-guess-1")
    elsewhere = Client(REMOTE_ADDR=fresh_address())
    attempt(elsewhere, PASSWORD)
    assert logged_in(elsewhere)


def test_other_usernames_from_the_same_address_are_not_throttled(client, alice, limit):
    services.user_register(username="bob", email="bob@example.com", password=PASSWORD)
    for _ in range(limit):
        attempt(client, "wrong-guess-1")
    attempt(client, PASSWORD, username="bob")
    assert logged_in(client)


def test_a_successful_login_forgets_earlier_failures(client, alice, limit):
    for _ in range(limit - 1):
        attempt(client, "wrong-guess-1")
    attempt(client, PASSWORD)
    assert logged_in(client)
    client.post("/accounts/logout/")
    for _ in range(limit - 1):
        attempt(client, "wrong-guess-1")
    attempt(client, PASSWORD)
    assert logged_in(client)


def test_unknown_usernames_are_throttled_too(client, limit):
    for _ in range(limit):
        attempt(client, "wrong-guess-1", username="nobody")
    assert "Too many failed attempts to log in as nobody." in attempt(
        client, "wrong-guess-1", username="nobody"
    )


def register(client: Client, name: str):
    return client.post(
        "/accounts/register/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password": PASSWORD,
            "password_confirm": PASSWORD,
        },
    )


def test_one_address_may_open_only_so_many_accounts_per_window(settings):
    settings.REGISTRATION_LIMIT = 2
    address = fresh_address()
    for name in ("reg1", "reg2"):
        assert register(Client(REMOTE_ADDR=address), name).status_code == 302
    refused = register(Client(REMOTE_ADDR=address), "reg3")
    assert refused.status_code == 429
    assert "Too many accounts were opened from your address" in refused.content.decode()
    assert not User.objects.filter(username="reg3").exists()
    assert register(Client(REMOTE_ADDR=fresh_address()), "reg3").status_code == 302
