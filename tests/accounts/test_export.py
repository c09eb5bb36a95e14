"""The data export: one zip of the player's finished games, ratings history and puzzle attempts."""

import io
import json
import zipfile

import pytest

from accounts import services
from games import services as game_services
from tests.games.conftest import live_game

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"
EXPORT = "/account/export/"


def test_the_archive_holds_finished_games_only(client):
    alice = services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)
    bob = services.user_register(username="Bob", email="bob@example.com", password=PASSWORD)
    finished = live_game([alice, bob])
    game_services.game_resign(game_id=finished.pk, user=bob)
    running = live_game([alice, bob])
    services.preferences_save(user=alice, changes={"theme": "dark"})

    client.force_login(alice)
    response = client.get(EXPORT)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="topiary-Alice.zip"' in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {"account.json", "ratings.json", "puzzle_attempts.json"} <= names
    assert f"games/topiary-{finished.pk}.json" in names
    assert f"games/topiary-{running.pk}.json" not in names
    account = json.loads(archive.read("account.json"))
    assert account["username"] == "Alice" and account["preferences"]["theme"] == "dark"
    record = json.loads(archive.read(f"games/topiary-{finished.pk}.json"))
    assert "Alice" in json.dumps(record)


def test_visitors_are_sent_to_log_in(client):
    response = client.get(EXPORT)
    assert response.status_code == 302 and "/accounts/login/" in response.url
