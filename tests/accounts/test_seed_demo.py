import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.management.commands.seed_demo import DEMO_PASSWORD
from accounts.models import User

pytestmark = pytest.mark.django_db


def seed(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def accounts() -> list[tuple]:
    return list(
        User.objects.order_by("username").values_list("username", "is_bot", "bot_level", "password")
    )


def test_seed_creates_bots_and_demo_players_and_running_again_changes_nothing(settings):
    settings.DEBUG = True
    output = seed()
    assert f"alice      password: {DEMO_PASSWORD}" in output
    first = accounts()
    assert [(name, is_bot, level) for name, is_bot, level, _ in first] == [
        ("GreedyBot", True, "greedy"),
        ("MasterBot", True, "master"),
        ("RandomBot", True, "random"),
        ("StrongBot", True, "strong"),
        ("alice", False, ""),
        ("bob", False, ""),
        ("carol", False, ""),
    ]
    seed()
    assert accounts() == first
    for bot in User.objects.filter(is_bot=True):
        assert not bot.has_usable_password()
    assert authenticate(username="bob", password=DEMO_PASSWORD).username == "bob"


def test_seed_keeps_a_demo_player_password_that_was_changed(settings):
    settings.DEBUG = True
    seed()
    alice = User.objects.get(username="alice")
    alice.set_password("alice-own-secret-9")
    alice.save()
    assert "alice      exists, password left as it is" in seed()
    assert authenticate(username="alice", password="alice-own-secret-9") == alice


def test_seed_refuses_demo_players_in_production_and_creates_nothing(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        seed()
    assert not User.objects.exists()


def test_seed_in_production_creates_bots_only_when_asked(settings):
    settings.DEBUG = False
    seed("--bots-only")
    assert set(User.objects.values_list("username", flat=True)) == {
        "RandomBot",
        "GreedyBot",
        "StrongBot",
        "MasterBot",
    }
    seed("--allow-production")
    assert User.objects.filter(is_bot=False).count() == 3
