"""Changing the e-mail address: it takes effect only from the link sent to the new address."""

import base64
import re

import pytest
from django.core import mail, signing

from accounts import services
from accounts.models import EmailChange, User

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
CHANGE = "/account/email/"


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def confirm_link(message) -> str:
    match = re.search(r"http://testserver(/account/email/confirm/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_the_new_address_takes_effect_from_its_link_once(client, alice):
    client.force_login(alice)
    response = client.post(CHANGE, {"email": "alice@new.example", "password": PASSWORD})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert [m.to for m in mail.outbox] == [["alice@new.example"]]

    link = confirm_link(mail.outbox[0])
    page = client.get(link)
    assert page.status_code == 200
    assert "alice@new.example" in page.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"

    again = client.get(link)
    assert again.status_code == 400
    assert "already been used" in again.content.decode()


def test_a_wrong_password_sends_nothing(client, alice):
    client.force_login(alice)
    response = client.post(CHANGE, {"email": "alice@new.example", "password": "wrong"})
    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    assert mail.outbox == []


def test_an_address_in_use_is_refused(client, alice):
    User.objects.create_user(username="bob", email="bob@example.com")
    client.force_login(alice)
    response = client.post(CHANGE, {"email": "BOB@example.com", "password": PASSWORD})
    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert mail.outbox == []


def test_an_expired_or_forged_link_changes_nothing(client, alice, settings):
    token = services.email_change_token(user=alice, new_email="alice@new.example")
    settings.EMAIL_CHANGE_TIMEOUT = -1
    expired = client.get(f"/account/email/confirm/{token}/")
    assert expired.status_code == 400
    assert "expired" in expired.content.decode()
    settings.EMAIL_CHANGE_TIMEOUT = 3600
    forged = signing.dumps(
        {"user": alice.pk, "new": "evil@example.com", "old": alice.email}, salt="other"
    )
    assert client.get(f"/account/email/confirm/{forged}/").status_code == 400
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_link_names_no_user_and_no_address(client, alice):
    """The token is opaque: decoded any way, it holds neither address nor the user's id."""
    client.force_login(alice)
    client.post(CHANGE, {"email": "alice@new.example", "password": PASSWORD})
    token = confirm_link(mail.outbox[0]).split("/")[-2]
    padded = token + "=" * (-len(token) % 4)
    readings = [token, base64.urlsafe_b64decode(padded).decode("latin-1")]
    for text in readings:
        assert "alice" not in text.lower() and "example" not in text
        assert not re.search(rf'"user"\s*:\s*{alice.pk}\b', text)
    assert client.get(f"/account/email/confirm/{token}/").status_code == 200
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"


def test_using_one_link_spends_the_others(client, alice):
    first = services.email_change_token(user=alice, new_email="alice@first.example")
    second = services.email_change_token(user=alice, new_email="alice@second.example")
    assert client.get(f"/account/email/confirm/{second}/").status_code == 200
    spent = client.get(f"/account/email/confirm/{first}/")
    assert spent.status_code == 400
    assert "already been used" in spent.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@second.example"


def test_closing_the_account_forgets_its_pending_addresses(client, alice):
    token = services.email_change_token(user=alice, new_email="alice@new.example")
    services.account_close(user=alice, password=PASSWORD)
    assert not EmailChange.objects.filter(user=alice).exists()
    assert client.get(f"/account/email/confirm/{token}/").status_code == 400
