"""The settings page: preferences stored per player and rendered into every page's frame."""

import json

import pytest

from accounts import services
from accounts.models import Preferences

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
SETTINGS = "/account/settings/"


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def frame(client) -> str:
    return client.get("/").content.decode()


def test_defaults_are_rendered_for_visitors_and_new_players(client, alice):
    page = frame(client)
    assert '<html lang="en" data-theme="auto">' in page
    assert 'data-sound="1" data-confirm-moves="1" data-signed-in="0"' in page
    client.force_login(alice)
    page = frame(client)
    assert 'data-sound="1" data-confirm-moves="1" data-signed-in="1"' in page
    assert 'href="/account/settings/"' in page


def test_the_form_saves_and_every_page_renders_them(client, alice):
    client.force_login(alice)
    response = client.post(
        SETTINGS, {"theme": "dark", "language": "de", "sound": "on"}, follow=True
    )
    # Saved in German: the page after saving already speaks it.
    assert "Deine Einstellungen wurden gespeichert." in response.content.decode()
    assert Preferences.objects.get(user=alice).as_dict() == {
        "sound": True,
        "confirm_moves": False,
        "theme": "dark",
        "language": "de",
        # Unticked: off. Not in the form posted: kept.
        "coordinates": False,
        "animation": "normal",
        "time_zone": "",
    }
    page = frame(client)
    assert '<html lang="de" data-theme="dark">' in page
    assert 'data-sound="1" data-confirm-moves="0" data-signed-in="1"' in page


def test_json_saves_a_subset_and_answers_json(csrf_client, alice):
    csrf_client.force_login(alice)
    csrf_client.get(SETTINGS)
    token = csrf_client.cookies["csrftoken"].value
    response = csrf_client.post(
        SETTINGS,
        json.dumps({"theme": "light", "sound": False}),
        content_type="application/json",
        headers={"Accept": "application/json", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "prefs": {
            "sound": False,
            "confirm_moves": True,
            "theme": "light",
            "language": "",
            "coordinates": True,
            "animation": "normal",
            "time_zone": "",
        },
    }
    without_token = csrf_client.post(
        SETTINGS, json.dumps({"theme": "dark"}), content_type="application/json"
    )
    assert without_token.status_code == 403
    assert Preferences.objects.get(user=alice).theme == "light"


def test_bad_values_are_refused_and_change_nothing(client, alice):
    client.force_login(alice)
    services.preferences_save(user=alice, changes={"theme": "dark"})
    for body in ({"theme": "purple"}, {"volume": 11}, {"sound": "maybe"}, [1, 2]):
        response = client.post(
            SETTINGS,
            json.dumps(body),
            content_type="application/json",
            headers={"Accept": "application/json"},
        )
        assert response.status_code == 400
        assert response.json()["ok"] is False
    assert Preferences.objects.get(user=alice).as_dict()["theme"] == "dark"
    assert Preferences.objects.get(user=alice).sound is True


def test_visitors_see_the_form_but_cannot_post(client):
    page = client.get(SETTINGS).content.decode()
    assert "kept in this browser only" in page
    assert "data-prefs-form" in page
    response = client.post(
        SETTINGS,
        json.dumps({"theme": "dark"}),
        content_type="application/json",
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 403
    assert not Preferences.objects.exists()


def test_the_account_entries_are_on_the_page(client, alice):
    client.force_login(alice)
    page = client.get(SETTINGS).content.decode()
    for url in (
        "/account/email/",
        "/accounts/password/",
        "/account/two-factor/",
        "/account/close/",
    ):
        assert f'href="{url}"' in page


def test_board_preferences_are_kept_and_rendered_for_the_boards(client, alice):
    page = frame(client)
    assert 'data-coordinates="1" data-animation="normal"' in page
    client.force_login(alice)
    client.post(SETTINGS, {"theme": "auto", "language": "", "sound": "on", "animation": "none"})
    prefs = Preferences.objects.get(user=alice)
    assert (prefs.coordinates, prefs.animation) == (False, "none")
    assert 'data-coordinates="0" data-animation="none"' in frame(client)
    response = client.post(
        SETTINGS,
        json.dumps({"animation": "warp", "coordinates": True}),
        content_type="application/json",
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 400
    assert "animation" in response.json()["errors"]
    prefs.refresh_from_db()
    assert (prefs.coordinates, prefs.animation) == (False, "none")
