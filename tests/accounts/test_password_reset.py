"""Password reset by e-mail over HTTP: the mail read back from Django's test backend."""

import re

import pytest
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import mail
from django.core.cache import cache

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
NEW_PASSWORD = "topiary-spiral-77"
RESET = "/accounts/password/reset/"


@pytest.fixture(autouse=True)
def fresh_reset_counters():
    """Reset requests are counted per address in the (shared, Redis) cache."""
    cache.clear()


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def reset_link(message) -> str:
    match = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def set_password(client, link: str, password: str = NEW_PASSWORD):
    """Follow the link (Django moves the token into the session) and set a password."""
    page = client.get(link, follow=True)
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    return page, client.post(
        form_url, {"new_password1": password, "new_password2": password}, follow=True
    )


def test_the_link_sets_a_new_password_once(client, alice):
    response = client.post(RESET, {"email": "ALICE@example.com"}, follow=True)
    assert "Check your e-mail" in response.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    link = reset_link(message)

    page, done = set_password(client, link)
    assert "Choose a new password" in page.content.decode()
    assert "Your password is set" in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    # The same link again: refused, and the password stays the new one.
    again = client.get(link, follow=True).content.decode()
    assert "This link does not work" in again
    assert 'name="new_password1"' not in again
    assert client.login(username="alice", password=NEW_PASSWORD)


def test_an_expired_link_is_refused(client, alice, settings, monkeypatch):
    client.post(RESET, {"email": "alice@example.com"})
    link = reset_link(mail.outbox[0])
    real_now = PasswordResetTokenGenerator._now
    monkeypatch.setattr(
        PasswordResetTokenGenerator,
        "_now",
        lambda self: real_now(self).__class__.fromtimestamp(
            real_now(self).timestamp() + settings.PASSWORD_RESET_TIMEOUT + 5
        ),
    )
    page = client.get(link, follow=True).content.decode()
    assert "This link does not work" in page
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_unknown_and_known_addresses_get_the_same_answer(client, alice):
    known = client.post(RESET, {"email": "alice@example.com"}, follow=True)
    unknown = client.post(RESET, {"email": "nobody@example.com"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain
    assert known.status_code == unknown.status_code == 200

    def body(response) -> str:
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())

    assert body(known) == body(unknown)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_requests_are_throttled_per_address_whether_it_exists_or_not(client, alice, settings):
    settings.PASSWORD_RESET_LIMIT = 2
    for address in ("alice@example.com", "ghost@example.com"):
        for _ in range(2):
            assert client.post(RESET, {"email": address}).status_code == 302
        refused = client.post(RESET, {"email": address})
        assert refused.status_code == 200
        assert "Too many reset requests for this address" in refused.content.decode()
    assert len(mail.outbox) == 2
    # Another address is not held back by those.
    User.objects.create_user(username="bob", email="bob@example.com", password=PASSWORD)
    assert client.post(RESET, {"email": "bob@example.com"}).status_code == 302
    assert len(mail.outbox) == 3


def test_the_login_page_links_to_the_reset(client):
    assert RESET in client.get("/accounts/login/").content.decode()
