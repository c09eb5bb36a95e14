"""Signing a user in reads them and their preferences in one statement, and still refuses
whom it refused before."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from accounts import selectors, services
from accounts.backends import PlayerBackend
from accounts.models import Preferences, User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def alice():
    return services.user_register(username="Alice", email="alice@example.com", password=PASSWORD)


def test_a_player_comes_with_their_preferences_in_one_statement(alice, django_assert_num_queries):
    services.preferences_save(user=alice, changes={"language": "de", "theme": "dark"})
    with django_assert_num_queries(1):
        user = PlayerBackend().get_user(alice.pk)
        preferences = selectors.preferences_of(user=user)
        assert (preferences.language, preferences.theme) == ("de", "dark")
        assert preferences.user is user
    stored = User.objects.get(pk=alice.pk)
    assert model_to_dict(user) == model_to_dict(stored)
    assert user.last_login == stored.last_login and user.date_joined == stored.date_joined
    assert model_to_dict(preferences) == model_to_dict(Preferences.objects.get(user=alice))


def test_a_player_who_saved_no_preferences_gets_the_defaults_without_asking_again(
    alice, django_assert_num_queries
):
    Preferences.objects.filter(user=alice).delete()
    with django_assert_num_queries(1):
        user = PlayerBackend().get_user(alice.pk)
        preferences = selectors.preferences_of(user=user)
    assert preferences.pk is None and preferences.language == ""


def test_nobody_is_signed_in_for_a_missing_closed_or_bot_account(alice):
    backend = PlayerBackend()
    assert backend.get_user(alice.pk + 1000) is None
    assert backend.get_user("not an id") is None
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert backend.get_user(alice.pk) is None
    bot = services.bot_ensure(level="random")
    assert backend.get_user(bot.pk) is None


def test_a_signed_in_page_speaks_the_players_language(alice, client):
    services.preferences_save(user=alice, changes={"language": "de"})
    client.force_login(alice)
    response = client.get("/")
    assert response.status_code == 200
    assert response.context["user"] == alice
    assert '<html lang="de"' in response.content.decode()
