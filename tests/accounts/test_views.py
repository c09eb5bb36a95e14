import pytest
from django.contrib.auth import authenticate
from django.urls import reverse

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
REGISTER = "/accounts/register/"
LOGIN = "/accounts/login/"
LOGOUT = "/accounts/logout/"
PASSWORD_CHANGE = "/accounts/password/"


def registration(**overrides) -> dict[str, str]:
    data = {
        "username": "alice",
        "email": "alice@example.com",
        "password": PASSWORD,
        "password_confirm": PASSWORD,
    }
    return {**data, **overrides}


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def text(response) -> str:
    return response.content.decode()


def test_register_logs_the_player_in_on_their_profile(client):
    response = client.post(REGISTER, registration(), follow=True)
    assert response.redirect_chain == [("/@/alice/", 302)]
    assert response.context["user"].username == "alice"
    page = text(response)
    assert "Welcome to Topiary Online, alice!" in page
    assert '<h1><span class="player">alice</span></h1>' in page
    assert "Log out" in page


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"username": "x" * 5000}, "username", "at most 20 characters"),
        ({"username": "al ice"}, "username", "A username uses only letters A-Z"),
        ({"email": "not-an-email"}, "email", "Enter a valid email address."),
        ({"email": "a" * 300 + "@example.com"}, "email", "at most 254 characters"),
        ({"password": "p" * 129, "password_confirm": "p" * 129}, "password", "at most 128"),
        ({"password": "password", "password_confirm": "password"}, "password", "too common"),
        ({"password_confirm": "hedge-maze-43"}, "password_confirm", "The two passwords differ."),
        ({"username": ""}, "username", "This field is required."),
    ],
)
def test_register_shows_what_is_wrong_and_creates_nothing(client, overrides, field, message):
    response = client.post(REGISTER, registration(**overrides))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert any(message in error for error in errors[field]), errors
    assert message in text(response).replace("&#x27;", "'")
    assert 'aria-invalid="true"' in text(response)
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_register_refuses_a_name_taken_in_another_case(client, alice):
    response = client.post(REGISTER, registration(username="ALICE", email="a2@example.com"))
    assert response.status_code == 200
    assert "That username is taken." in text(response)
    assert User.objects.count() == 1


def test_register_refuses_an_email_taken_in_another_case(client, alice):
    response = client.post(REGISTER, registration(username="bob", email="Alice@EXAMPLE.com"))
    assert response.status_code == 200
    assert "An account with that email address already exists." in text(response)
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("path", "data"),
    [
        (REGISTER, registration()),
        (LOGIN, {"username": "Alice", "password": PASSWORD}),
        (LOGOUT, {}),
        (PASSWORD_CHANGE, {}),
    ],
)
def test_every_form_refuses_a_post_without_csrf_token(csrf_client, alice, path, data):
    csrf_client.force_login(alice)
    response = csrf_client.post(path, data)
    assert response.status_code == 403
    assert User.objects.count() == 1
    assert csrf_client.session.get("_auth_user_id") == str(alice.pk)


def test_forms_carry_a_csrf_token(client, alice):
    for path in (REGISTER, LOGIN):
        assert 'name="csrfmiddlewaretoken"' in text(client.get(path))
    client.force_login(alice)
    assert 'name="csrfmiddlewaretoken"' in text(client.get(PASSWORD_CHANGE))
    assert 'name="csrfmiddlewaretoken"' in text(client.get("/"))  # the logout button


def test_login_ignores_the_case_of_the_username_and_logout_needs_post(client, alice):
    response = client.post(LOGIN, {"username": "aLICE", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert client.get(LOGOUT).status_code == 405
    assert client.session["_auth_user_id"] == str(alice.pk)
    response = client.post(LOGOUT)
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_with_a_wrong_password_says_so(client, alice):
    response = client.post(LOGIN, {"username": "Alice", "password": "hedge-maze-43"})
    assert response.status_code == 200
    assert "That username and password do not match." in text(response)
    assert "_auth_user_id" not in client.session


def test_login_refuses_an_oversized_password_without_hashing_it(client, alice):
    response = client.post(LOGIN, {"username": "Alice", "password": "x" * 100_000})
    assert "at most 128 characters" in text(response)
    assert "_auth_user_id" not in client.session


def test_a_bot_cannot_log_in_even_with_a_password(client):
    bot = services.bot_ensure(level="strong")
    # Even if someone gave the bot a password, no login path accepts it.
    bot.set_password(PASSWORD)
    bot.save()
    response = client.post(LOGIN, {"username": "StrongBot", "password": PASSWORD})
    assert "StrongBot is a bot account: bots play from the server and cannot log in." in text(
        response
    )
    assert "_auth_user_id" not in client.session
    assert authenticate(username="StrongBot", password=PASSWORD) is None
    assert client.login(username="StrongBot", password=PASSWORD) is False


def test_a_bot_session_is_not_honoured(client):
    """A session forged for a bot is dropped, because the backend will not load bots."""
    bot = services.bot_ensure(level="random")
    client.force_login(bot, backend="accounts.backends.PlayerBackend")
    response = client.get("/")
    assert not response.context["user"].is_authenticated


def test_password_change_needs_login(client):
    response = client.get(PASSWORD_CHANGE)
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN + "?next=")


def test_password_change_checks_the_old_password_and_the_new_ones(client, alice):
    client.force_login(alice)
    response = client.post(
        PASSWORD_CHANGE,
        {"old_password": "wrong", "new_password1": "x", "new_password2": "y"},
    )
    page = text(response).replace("&#x27;", "'")
    assert "Your old password was entered incorrectly." in page
    assert "The two password fields didn" in page
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_password_change_works_and_keeps_the_player_logged_in(client, alice):
    client.force_login(alice)
    new = "topiary-garden-77"
    response = client.post(
        PASSWORD_CHANGE,
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/@/Alice/"
    assert "Your password was changed." in text(response)
    assert response.context["user"] == alice
    assert authenticate(username="alice", password=new) == alice
    assert authenticate(username="alice", password=PASSWORD) is None


def test_profile_is_public_and_names_are_found_in_any_case(client, alice):
    response = client.get("/@/ALICE/")
    assert response.status_code == 301
    assert response["Location"] == "/@/Alice/"
    response = client.get("/@/Alice/")
    assert response.status_code == 200
    assert "<title>Alice · Topiary Online</title>" in text(response)
    assert "Change password" not in text(response)
    assert client.get("/@/nobody-here/").status_code == 404


def test_bot_profile_and_links_carry_the_bot_mark(client):
    bot = services.bot_ensure(level="greedy")
    page = text(client.get(reverse("accounts:profile", args=[bot.username])))
    assert '<span class="player">GreedyBot</span> <span class="badge badge-bot"' in page
    assert "Computer player, greedy level" in page


def test_home_page_has_navigation_and_landmarks(client, alice):
    page = text(client.get("/"))
    for href, label in [
        ("/play/", "Play"),
        ("/puzzles/", "Puzzle"),
        ("/leaderboards/", "Leaderboards"),
        ("/tournaments/", "Tournaments"),
        (LOGIN, "Log in"),
        (REGISTER, "Register"),
    ]:
        assert f'href="{href}">{label}</a>' in page or f'href="{href}">{label}' in page
    assert '<a class="skip-link" href="#main">' in page
    assert '<main id="main"' in page
    assert '<nav class="site-nav" aria-label="Main">' in page
    client.force_login(alice)
    page = text(client.get("/"))
    assert 'href="/@/Alice/">Alice</a>' in page
    assert "Log in" not in page


def test_login_follows_next_within_the_site_only(client, alice):
    data = {"username": "alice", "password": PASSWORD}
    response = client.post(LOGIN + "?next=/@/Alice/", data)
    assert response["Location"] == "/@/Alice/"
    client.post(LOGOUT)
    response = client.post(LOGIN + "?next=https://evil.example/", data)
    assert response["Location"] == "/"


def test_registering_without_an_email_address_works_and_two_such_accounts_coexist(client):
    first = client.post(REGISTER, registration(email=""), follow=True)
    assert first.redirect_chain == [("/@/alice/", 302)]
    client.logout()
    second = client.post(REGISTER, registration(username="bob", email=""), follow=True)
    assert second.redirect_chain == [("/@/bob/", 302)]
    assert list(User.objects.order_by("username").values_list("username", "email")) == [
        ("alice", ""),
        ("bob", ""),
    ]
