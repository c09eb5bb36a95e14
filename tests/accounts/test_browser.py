"""Accounts in Chromium against a real ASGI server: preferences, and the reset e-mail followed."""

from __future__ import annotations

import base64
import re
import time

import pytest
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from accounts.models import Preferences, User
from games import services as game_services
from games.models import Game
from tests.support import servers
from tests.support.browser import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]

PASSWORD = "hedge-maze-42"
NEW_PASSWORD = "topiary-spiral-77"


@pytest.fixture(autouse=True)
def fast_password_hashing():
    """The server checks passwords with the real hashers, so these tests store them so too."""


@pytest.fixture(scope="module")
def mail_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="module")
def web(server_env, server_logs, mail_dir):
    """The web process with the embedded default's file backend writing into ``mail_dir``."""
    proc, url = servers.start_web({**server_env, "EMAIL_FILE_PATH": str(mail_dir)}, server_logs)
    yield url
    proc.stop()


def test_a_visitor_keeps_the_theme_in_the_browser(page, web):
    page.goto(f"{web}/account/settings/")
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "auto")
    expect(page.locator("body")).to_have_attribute("data-signed-in", "0")
    page.locator("#main").get_by_label("Theme").select_option("dark")
    page.get_by_label("Confirm each move before it is sent").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved in this browser.")).to_be_visible()
    expect(html).to_have_attribute("data-theme", "dark")

    page.reload()
    expect(html).to_have_attribute("data-theme", "dark")
    expect(page.locator("body")).to_have_attribute("data-confirm-moves", "0")
    expect(page.locator("#main").get_by_label("Theme")).to_have_value("dark")
    page.goto(f"{web}/")
    expect(html).to_have_attribute("data-theme", "dark")
    stored = page.evaluate("JSON.parse(localStorage.getItem('topiary-prefs'))")
    assert stored["theme"] == "dark" and stored["confirm_moves"] is False


def test_a_player_saves_settings_on_the_server(browser, web):
    user = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    context, page = signed_in(browser, web, user)
    try:
        page.goto(f"{web}/")
        page.get_by_role("link", name="Settings").click()
        expect(page).to_have_url(f"{web}/account/settings/")
        page.locator("#main").get_by_label("Theme").select_option("dark")
        page.get_by_label("Sounds (a move, your turn, the clock running low)").uncheck()
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Your settings were saved.")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        expect(page.locator("body")).to_have_attribute("data-sound", "0")
        expect(page.locator("body")).to_have_attribute("data-signed-in", "1")
        assert Preferences.objects.get(user=user).theme == "dark"
    finally:
        context.close()


def test_the_reset_email_is_read_back_and_followed(page, web, mail_dir):
    User.objects.create_user("bob", "bob@example.com", PASSWORD)
    page.goto(f"{web}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Your account's e-mail address").fill("bob@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()

    messages = [path.read_text() for path in mail_dir.iterdir()]
    links = [m for text in messages for m in re.findall(r"http://\S+/password/reset/\S+/", text)]
    assert len(links) == 1 and "To: bob@example.com" in messages[0]
    page.goto(links[0])
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_role("heading", name="Your password is set")).to_be_visible()

    page.get_by_role("link", name="Log in").last.click()
    page.get_by_label("Username").fill("bob")
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "1")

    page.goto(links[0])
    expect(page.get_by_role("heading", name="This link does not work")).to_be_visible()


def app_code(secret_text: str, steps_ahead: int = 0) -> str:
    """What an authenticator app shows for the key the page prints (RFC 6238, 30 s, 6 digits)."""
    text = secret_text.replace(" ", "")
    key = base64.b32decode(text + "=" * (-len(text) % 8))
    totp = TOTP(key, step=30, t0=0, digits=6)
    totp.time = time.time() + steps_ahead * 30
    return f"{totp.token():06d}"


def test_two_factor_from_the_settings_page_to_closing_the_account(page, web):
    carol = User.objects.create_user("carol", "carol@example.com", PASSWORD)
    dave = User.objects.create_user("dave", "dave@example.com", PASSWORD)
    running = game_services.game_create(
        kind="topiary",
        players=[carol, dave],
        options={},
        rated=False,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    page.goto(f"{web}/accounts/login/")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "1")

    page.get_by_role("link", name="Settings").click()
    page.get_by_role("link", name="Turn on").click()
    expect(page.locator(".qr-code svg")).to_be_visible()
    secret = page.locator("[data-totp-secret]").inner_text()
    # The right code is not enough: a session left open must not lock carol out.
    page.get_by_label("Password").fill("not-carols-password")
    page.get_by_role("textbox", name="Code").fill(app_code(secret))
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_text("That is not your password.")).to_be_visible()
    assert page.locator("[data-totp-secret]").inner_text() == secret
    assert not TOTPDevice.objects.filter(user=carol, confirmed=True).exists()
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("textbox", name="Code").fill(app_code(secret))
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_text("shown only this once")).to_be_visible()
    expect(page.locator(".recovery-codes li")).to_have_count(10)
    recovery = page.locator(".recovery-codes code").all_inner_texts()

    page.get_by_role("button", name="Log out").click()
    page.goto(f"{web}/accounts/login/")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "0")
    page.get_by_role("textbox", name="Code").fill(app_code(secret, steps_ahead=1))
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "1")

    page.goto(f"{web}/account/settings/")
    page.get_by_role("link", name="Close account").click()
    expect(page.get_by_text("cannot be undone")).to_be_visible()
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Two-factor code").fill("000000")
    page.get_by_role("button", name="Close my account").click()
    expect(page.get_by_text("That code is not right")).to_be_visible()
    carol.refresh_from_db()
    assert carol.is_active
    # A recovery code works where the app's codes are throttled after the wrong one.
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Two-factor code").fill(recovery[0])
    page.get_by_role("button", name="Close my account").click()
    expect(page.get_by_text("Your account is closed.")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-signed-in", "0")

    running.refresh_from_db()
    assert running.status == Game.Status.FINISHED
    carol.refresh_from_db()
    assert not carol.is_active and carol.email == ""
    page.goto(f"{web}/@/carol/")
    expect(page.get_by_text("Account closed")).to_be_visible()


def test_a_visitors_language_choice_holds_across_pages(page, web):
    page.goto(f"{web}/account/settings/")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "en")
    page.locator("#id_theme").select_option("dark")
    page.locator("#id_language").select_option("de")
    page.locator("[data-prefs-form] button[type=submit]").click()
    # The server keeps the language in the cookie and answers in it; the theme stays
    # with the browser, stored before the form went.
    expect(html).to_have_attribute("lang", "de")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(page.locator("#id_language")).to_have_value("de")
    page.goto(f"{web}/leaderboards/")
    expect(html).to_have_attribute("lang", "de")
    stored = page.evaluate("JSON.parse(localStorage.getItem('topiary-prefs'))")
    assert stored["theme"] == "dark" and "language" not in stored

    page.goto(f"{web}/account/settings/")
    page.locator("#id_language").select_option("")
    page.locator("[data-prefs-form] button[type=submit]").click()
    expect(html).to_have_attribute("lang", "en")
    page.goto(f"{web}/")
    expect(html).to_have_attribute("lang", "en")


def test_a_players_language_survives_the_footers_theme_switch(browser, web):
    user = User.objects.create_user("erin", "erin@example.com", PASSWORD)
    context, page = signed_in(browser, web, user)
    try:
        page.goto(f"{web}/account/settings/")
        html = page.locator("html")
        page.locator("#id_language").select_option("de")
        page.locator("[data-prefs-form] button[type=submit]").click()
        expect(html).to_have_attribute("lang", "de")
        assert Preferences.objects.get(user=user).language == "de"

        # The footer saves the theme alone: the language (and the rest) stay as saved.
        with page.expect_response(lambda response: "/account/settings/" in response.url):
            page.locator("#theme-choice").select_option("dark")
        prefs = Preferences.objects.get(user=user)
        assert (prefs.theme, prefs.language, prefs.sound) == ("dark", "de", True)
        page.goto(f"{web}/")
        expect(html).to_have_attribute("lang", "de")
        expect(html).to_have_attribute("data-theme", "dark")
    finally:
        context.close()
