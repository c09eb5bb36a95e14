"""Which language a page speaks: the player's setting, else the cookie, else the browser's;
the settings form sets it for players and visitors alike, and mail speaks the recipient's."""

import re

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation

from accounts import services
from accounts.models import Preferences

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
SETTINGS = "/account/settings/"
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def page_language(response) -> str:
    return re.search(r'<html lang="([^"]*)"', response.content.decode()).group(1)


def test_a_players_saved_language_beats_the_browsers(client, alice):
    services.preferences_save(user=alice, changes={"language": "de"})
    client.force_login(alice)
    response = client.get("/", headers={"Accept-Language": "en"})
    assert page_language(response) == "de"
    assert response["Content-Language"] == "de"


def test_a_players_saved_language_beats_the_cookie_too(client, alice):
    services.preferences_save(user=alice, changes={"language": "en"})
    client.force_login(alice)
    client.cookies[COOKIE] = "de"
    assert page_language(client.get("/", headers={"Accept-Language": "de"})) == "en"


def test_without_a_setting_the_browser_decides(client, alice):
    assert page_language(client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"})) == "de"
    client.force_login(alice)
    assert page_language(client.get("/", headers={"Accept-Language": "en"})) == "en"
    assert page_language(client.get("/", headers={"Accept-Language": "de"})) == "de"


def test_a_visitors_cookie_beats_the_browsers_header(client):
    client.cookies[COOKIE] = "de"
    response = client.get("/", headers={"Accept-Language": "en"})
    assert page_language(response) == "de"


def test_saving_german_makes_the_next_page_german(client, alice):
    client.force_login(alice)
    response = client.post(SETTINGS, {"theme": "auto", "language": "de", "sound": "on"})
    assert response.status_code == 302
    # The cookie too, so the page after saving speaks it whatever else decides.
    assert response.cookies[COOKIE].value == "de"
    assert Preferences.objects.get(user=alice).language == "de"
    after = client.get(response["Location"], headers={"Accept-Language": "en"})
    assert page_language(after) == "de"
    assert '<option value="de" selected>Deutsch</option>' in after.content.decode()


def test_choosing_the_browsers_language_again_drops_the_cookie(client, alice):
    client.force_login(alice)
    client.post(SETTINGS, {"theme": "auto", "language": "de"})
    response = client.post(SETTINGS, {"theme": "auto", "language": ""})
    assert response.cookies[COOKIE].value == "" and response.cookies[COOKIE]["max-age"] == 0
    assert page_language(client.get("/", headers={"Accept-Language": "en"})) == "en"


def test_saving_the_language_as_json_sets_the_cookie(client, alice):
    client.force_login(alice)
    response = client.post(
        SETTINGS,
        {"language": "de"},
        content_type="application/json",
        headers={"Accept": "application/json"},
    )
    assert response.json()["prefs"]["language"] == "de"
    assert response.cookies[COOKIE].value == "de"
    # Saving the theme alone (the footer's switch) leaves the language as it is.
    theme_only = client.post(
        SETTINGS,
        {"theme": "dark"},
        content_type="application/json",
        headers={"Accept": "application/json"},
    )
    assert COOKIE not in theme_only.cookies
    assert Preferences.objects.get(user=alice).as_dict()["language"] == "de"


def test_a_visitor_saving_german_keeps_it_in_the_cookie(client):
    response = client.post(SETTINGS, {"theme": "dark", "language": "de"})
    assert response.status_code == 302 and response["Location"] == SETTINGS
    assert response.cookies[COOKIE].value == "de"
    assert not Preferences.objects.exists()
    after = client.get(SETTINGS, headers={"Accept-Language": "en"})
    assert page_language(after) == "de"
    # The form shows what the cookie holds, and every other page follows it.
    assert '<option value="de" selected>Deutsch</option>' in after.content.decode()
    assert page_language(client.get("/", headers={"Accept-Language": "en"})) == "de"


def test_a_visitors_bad_language_is_refused(client):
    response = client.post(SETTINGS, {"theme": "auto", "language": "tlh"})
    assert response.status_code == 400
    assert COOKIE not in response.cookies


def test_the_reset_mail_speaks_the_accounts_language(client, alice, monkeypatch):
    services.preferences_save(user=alice, changes={"language": "de"})
    spoken = []
    monkeypatch.setattr(
        PasswordResetForm,
        "send_mail",
        lambda *args, **kwargs: spoken.append(translation.get_language()),
    )
    client.post(
        "/accounts/password/reset/",
        {"email": "alice@example.com"},
        headers={"Accept-Language": "en"},
    )
    assert spoken == ["de"]


def test_the_address_change_mail_speaks_the_players_language(client, alice, monkeypatch):
    services.preferences_save(user=alice, changes={"language": "de"})
    spoken = []
    monkeypatch.setattr(
        "accounts.views.send_mail",
        lambda *args, **kwargs: spoken.append(translation.get_language()),
    )
    client.force_login(alice)
    client.post("/account/email/", {"email": "alice@new.example", "password": PASSWORD})
    assert spoken == ["de"]


def test_the_saved_message_speaks_the_new_language(client, alice, monkeypatch):
    spoken = []
    success = messages.success

    def record(request, text):
        spoken.append(translation.get_language())
        success(request, text)

    monkeypatch.setattr(messages, "success", record)
    client.force_login(alice)
    english = {"Accept-Language": "en"}
    client.post(SETTINGS, {"theme": "auto", "language": "de"}, headers=english)
    client.post(SETTINGS, {"theme": "auto", "language": ""}, headers=english)
    client.logout()
    client.post(SETTINGS, {"theme": "auto", "language": "de"}, headers=english)
    assert spoken == ["de", "en", "de"]
