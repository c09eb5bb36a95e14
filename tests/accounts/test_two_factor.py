"""Two-factor sign-in over HTTP, with codes computed from the secret as an app would."""

import re

import pytest
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import services
from tests.support.two_factor import code_for

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
TWO_FACTOR = "/account/two-factor/"
LOGIN = "/accounts/login/"
LOGIN_CODE = "/accounts/login/code/"


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def enable(client, user) -> tuple[TOTPDevice, list[str]]:
    page = client.get(TWO_FACTOR).content.decode()
    assert "<svg" in page
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    shown_secret = re.search(r"<code data-totp-secret>([^<]+)</code>", page).group(1)
    assert len(shown_secret.replace(" ", "")) == 32
    response = client.post(TWO_FACTOR, {"password": PASSWORD, "code": code_for(device)})
    assert response.status_code == 200
    codes = re.findall(r"<li><code>([a-z0-9]+)</code></li>", response.content.decode())
    assert len(codes) == services.RECOVERY_CODES
    device.refresh_from_db()
    assert device.confirmed
    return device, codes


def test_enabling_needs_the_apps_code(client, alice):
    client.force_login(alice)
    client.get(TWO_FACTOR)
    response = client.post(TWO_FACTOR, {"password": PASSWORD, "code": "000000"})
    assert response.status_code == 400
    assert "That code is not right" in response.content.decode()
    assert services.two_factor_device(alice) is None


def test_enabling_needs_the_password_too(client, alice):
    """A session left open (or stolen) cannot turn two-factor on and lock the owner out."""
    client.force_login(alice)
    page = client.get(TWO_FACTOR).content.decode()
    device = TOTPDevice.objects.get(user=alice, confirmed=False)
    for password in ("", "not-her-password"):
        response = client.post(TWO_FACTOR, {"password": password, "code": code_for(device)})
        assert response.status_code == 400
        assert services.two_factor_device(alice) is None
    assert "That is not your password." in response.content.decode()
    # The same key is still shown, so the app that scanned it need not scan again.
    shown = re.search(r"<code data-totp-secret>([^<]+)</code>", page).group(1)
    assert shown in response.content.decode()
    assert not StaticToken.objects.filter(device__user=alice).exists()
    enable(client, alice)


def test_wrong_passwords_are_throttled_like_logins(client, alice, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    client.force_login(alice)
    client.get(TWO_FACTOR)
    device = TOTPDevice.objects.get(user=alice, confirmed=False)
    for _ in range(2):
        client.post(TWO_FACTOR, {"password": "guess-again", "code": code_for(device)})
    right = client.post(TWO_FACTOR, {"password": PASSWORD, "code": code_for(device)})
    assert right.status_code == 400
    assert "Too many wrong passwords" in right.content.decode()
    assert services.two_factor_device(alice) is None


def test_enable_then_sign_in_asks_for_the_code(client, alice):
    client.force_login(alice)
    device, codes = enable(client, alice)
    # Recovery codes are shown once: the page now offers only turning it off.
    again = client.get(TWO_FACTOR).content.decode()
    assert codes[0] not in again and "Turn off" in again
    client.logout()

    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response.url == LOGIN_CODE
    assert "_auth_user_id" not in client.session
    assert client.get("/account/close/").status_code == 302  # not signed in yet

    signed_in = client.post(LOGIN_CODE, {"code": code_for(device, steps_ahead=1)})
    assert signed_in.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_wrong_code_refuses_and_then_throttles(client, alice, settings):
    # An hour's wait after one wrong code, so the test cannot outrun it on a slow machine.
    settings.OTP_TOTP_THROTTLE_FACTOR = 3600
    client.force_login(alice)
    device, _ = enable(client, alice)
    client.logout()
    client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    wrong = client.post(
        LOGIN_CODE, {"code": "123456" if code_for(device, 1) != "123456" else "654321"}
    )
    assert wrong.status_code == 400
    assert "That code is not right" in wrong.content.decode()
    # Straight after a wrong code even the right one waits (django-otp's throttle).
    throttled = client.post(LOGIN_CODE, {"code": code_for(device, steps_ahead=1)})
    assert throttled.status_code == 400
    assert "Too many wrong codes" in throttled.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_code_page_needs_the_password_first(client, alice):
    response = client.post(LOGIN_CODE, {"code": "123456"})
    assert response.status_code == 302 and response.url == LOGIN


def test_a_recovery_code_signs_in_once(client, alice):
    client.force_login(alice)
    _, codes = enable(client, alice)
    client.logout()
    client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert client.post(LOGIN_CODE, {"code": codes[0]}).status_code == 302
    assert not StaticToken.objects.filter(token=codes[0]).exists()


def test_disable_needs_password_and_code(client, alice):
    client.force_login(alice)
    device, codes = enable(client, alice)
    wrong_password = client.post(TWO_FACTOR, {"password": "nope", "code": codes[0]})
    assert wrong_password.status_code == 400
    assert services.two_factor_device(alice) is not None
    off = client.post(TWO_FACTOR, {"password": PASSWORD, "code": code_for(device, 1)})
    assert off.status_code == 302
    assert services.two_factor_device(alice) is None
    client.logout()
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response.url != LOGIN_CODE
