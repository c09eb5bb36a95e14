"""The lobby's form addresses as a person meets them: a reload, a bad form, a challenge."""

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.services import Refused

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["games:table_new", "games:challenge_new", "games:bot_game_new"])
def test_a_get_of_a_form_address_shows_the_lobby_with_its_forms(client, make_player, name):
    client.force_login(make_player())
    response = client.get(reverse(name))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Create a table" in page and "Challenge a player" in page


def test_a_failed_challenge_shows_the_form_again_with_a_sentence(client, make_player):
    client.force_login(make_player())
    response = client.post(
        reverse("games:challenge_new"),
        {"kind": "topiary", "time_control": "5+3", "opponent": "nobody-here"},
    )
    assert response.status_code == 200
    assert "There is no player called &#x27;nobody-here&#x27;." in response.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_forms_say_which_game_takes_which_players_and_options(client, make_player):
    client.force_login(make_player())
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'data-seats="topiary:2,3,4 wizards_garden:2"' in page
    assert 'data-games="topiary"' in page


def test_a_challenge_offers_no_bots_and_refuses_them(client, make_player):
    ann, bob = make_player(), make_player()
    game = services.challenge_create(
        user=ann,
        opponent_username=bob.username,
        kind="topiary",
        options={},
        rated=False,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    client.force_login(ann)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Fill the free seats with bots" not in page
    assert "the game starts when the player you challenged joins" in page
    with pytest.raises(Refused) as refusal:
        services.table_fill_with_bots(game_id=game.pk, user=ann, level="random")
    assert refusal.value.reason == "A challenge waits for the player it is addressed to."
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_an_open_table_still_offers_bots(client, make_player):
    ann = make_player()
    game = services.table_create(
        user=ann,
        players=2,
        kind="topiary",
        options={},
        rated=False,
        clock_initial=300,
        clock_increment=3,
        correspondence_days=None,
    )
    client.force_login(ann)
    assert (
        "Fill the free seats with bots"
        in client.get(reverse("games:game", args=[game.pk])).content.decode()
    )
