"""The creator may start a tournament before its start time once enough players are in;
the page counts down to the start from the server's clock."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.models import Game
from tests.tournaments.conftest import make_due, make_tournament
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def entered(tournament: Tournament, players) -> Tournament:
    for player in players:
        services.tournament_join(tournament_id=tournament.pk, user=player)
    return tournament


def test_the_creator_starts_early_and_round_one_is_paired_at_once(make_player):
    creator = make_player()
    tournament = entered(make_tournament(creator), [make_player() for _ in range(3)])
    before = timezone.now()
    started = services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    tournament.refresh_from_db()
    assert started.pk == tournament.pk
    assert tournament.status == Tournament.Status.RUNNING
    assert before <= tournament.started_at < tournament.starts_at
    assert Round.objects.get(tournament=tournament).number == 1
    # Three players: one game and one bye.
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 1


@pytest.mark.parametrize(
    ("who", "players", "message"),
    [
        ("someone else", 2, "Only the tournament's creator can start it early."),
        ("nobody", 2, "Only the tournament's creator can start it early."),
        ("creator", 1, "Starting needs at least 2 players; 1 entered so far."),
        ("creator", 0, "Starting needs at least 2 players; 0 entered so far."),
    ],
)
def test_starting_early_is_refused_for_others_and_with_too_few_players(
    make_player, who, players, message
):
    creator = make_player()
    tournament = entered(make_tournament(creator), [make_player() for _ in range(players)])
    by = {"someone else": make_player(), "nobody": None, "creator": creator}[who]
    with pytest.raises(ValidationError) as refusal:
        services.tournament_start_early(tournament_id=tournament.pk, by=by)
    assert refusal.value.messages == [message]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING
    assert tournament.version == players  # only the joins moved it
    assert not Game.objects.exists()


def test_swiss_tables_need_a_full_table_to_start_early(make_player):
    creator = make_player()
    tournament = entered(
        make_tournament(creator, kind="topiary", format="swiss_tables", table_size=4),
        [make_player() for _ in range(3)],
    )
    with pytest.raises(ValidationError, match="at least 4 players; 3 entered"):
        services.tournament_start_early(tournament_id=tournament.pk, by=creator)


def test_a_started_or_finished_tournament_cannot_start_again(make_player):
    creator = make_player()
    tournament = entered(make_tournament(creator), [make_player(), make_player()])
    services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    with pytest.raises(ValidationError, match="already started"):
        services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    assert Round.objects.filter(tournament=tournament).count() == 1

    lonely = entered(make_tournament(creator), [make_player()])
    make_due(lonely)
    services.tournament_advance(tournament_id=lonely.pk)  # cancelled: one player
    with pytest.raises(ValidationError, match="is over"):
        services.tournament_start_early(tournament_id=lonely.pk, by=creator)


def test_the_page_offers_start_now_to_the_creator_only_when_enough_players(client, make_player):
    creator, other = make_player(), make_player()
    tournament = make_tournament(creator)
    page = f"/tournaments/{tournament.pk}/"
    client.force_login(creator)
    services.tournament_join(tournament_id=tournament.pk, user=other)
    html = client.get(page).content.decode()
    assert re.search(r'<button class="button" type="submit" id="start-now" disabled', html)
    assert "Starting early needs 2 players." in html

    services.tournament_join(tournament_id=tournament.pk, user=make_player())
    html = client.get(page).content.decode()
    assert '<button class="button" type="submit" id="start-now">Start now</button>' in html

    client.force_login(other)
    assert "start-now" not in client.get(page).content.decode()
    refused = client.post(f"/tournaments/{tournament.pk}/start/", follow=True)
    assert "Only the tournament&#x27;s creator can start it early." in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING

    client.force_login(creator)
    response = client.post(f"/tournaments/{tournament.pk}/start/")
    assert (response.status_code, response["Location"]) == (302, page)
    html = client.get(page).content.decode()
    assert 'data-status="running"' in html
    assert "The tournament has started." in html
    assert "start-now" not in html


def test_the_countdown_carries_the_start_and_the_server_time(client, make_player):
    tournament = make_tournament(make_player())
    before = int(timezone.now().timestamp() * 1000)
    html = client.get(f"/tournaments/{tournament.pk}/live/").content.decode()
    after = int(timezone.now().timestamp() * 1000)
    countdown = re.search(
        r'id="tournament-countdown" class="countdown" data-starts-at="(\d+)"'
        r' data-server-time="(\d+)">, in <time class="countdown-left">([^<]+)</time>',
        html,
    )
    assert int(countdown[1]) == int(tournament.starts_at.timestamp() * 1000)
    assert before <= int(countdown[2]) <= after
    # Without JavaScript the server's own wording stands.
    assert countdown[3] in ("1\xa0minute", "0\xa0minutes")
