"""The tournament pages, the live socket and the profile panel, as a visitor uses them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services as games
from tests.games.sockets import Socket, in_own_loop
from tests.tournaments.conftest import make_due, make_tournament, mover_of, new_player
from topiary_site.asgi import application
from tournaments import services
from tournaments.models import Tournament


def form_data(**overrides) -> dict:
    data = {
        "name": "Autumn Cup",
        "kind": "wizards_garden",
        "format": "swiss",
        "table_size": "2",
        "rounds": "4",
        "duration_minutes": "",
        "clock_minutes": "3",
        "clock_increment": "2",
        "rated": "on",
        "starts_at": (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
        "max_players": "16",
        "place_points": "",
        "place_points_short": "",
    }
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_creating_a_tournament_from_the_form(client, make_player):
    player = make_player()
    client.force_login(player)
    response = client.post("/tournaments/new/", form_data())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.name, tournament.rounds, tournament.clock_initial) == ("Autumn Cup", 4, 180)
    assert tournament.created_by == player
    page = client.get(response["Location"]).content.decode()
    assert "Autumn Cup" in page and "3+2" in page and "4 rounds" in page
    assert not tournament.bots_allowed and "bots may join" not in page


@pytest.mark.django_db
def test_the_creator_ticks_bots_may_join(client, make_player):
    client.force_login(make_player())
    assert "Bots may join" in client.get("/tournaments/").content.decode()
    response = client.post("/tournaments/new/", form_data(bots_allowed="on"))
    assert Tournament.objects.get().bots_allowed
    assert "bots may join" in client.get(response["Location"]).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"format": "round_robin", "max_players": "12"}, "Allow between 2 and 10 players."),
        ({"format": "arena"}, "An arena lasts 1 to 720 minutes."),
        ({"rounds": ""}, "Choose between 1 and 30 rounds."),
        ({"clock_minutes": "0.25", "clock_increment": "99"}, "The increment is 0 to 60 seconds."),
        (
            {"starts_at": (timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")},
            "The start time has passed.",
        ),
        (
            {"kind": "topiary", "format": "swiss_tables", "table_size": "4", "place_points": "1,2"},
            "give 4 numbers, one per place, for tables of 4",
        ),
    ],
)
def test_nonsense_in_the_form_is_shown_beside_the_field_and_nothing_is_created(
    client, make_player, overrides, message
):
    client.force_login(make_player())
    response = client.post("/tournaments/new/", form_data(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_visitors_must_sign_in_to_create_or_join(client, make_player):
    response = client.post("/tournaments/new/", form_data())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    tournament = make_tournament(make_player())
    response = client.post(f"/tournaments/{tournament.pk}/join/")
    assert "/accounts/login/" in response["Location"]
    assert not Tournament.objects.exclude(pk=tournament.pk).exists()
    assert not tournament.entries.exists()
    page = client.get("/tournaments/").content.decode()
    assert "Sign in</a> to create or join" in page


@pytest.mark.django_db
def test_the_list_sorts_tournaments_by_state(client, make_player):
    creator = make_player()
    upcoming = make_tournament(creator, name="Later Swiss")
    running = make_tournament(creator, name="Busy Swiss")
    Tournament.objects.filter(pk=running.pk).update(status="running", started_at=timezone.now())
    over = make_tournament(creator, name="Old Swiss")
    Tournament.objects.filter(pk=over.pk).update(status="finished", finished_at=timezone.now())
    page = client.get("/tournaments/").content.decode()
    upcoming_at, running_at, finished_at = (
        page.index(f'id="{name}-title"') for name in ("upcoming", "running", "finished")
    )
    assert upcoming_at < page.index(upcoming.name) < running_at
    assert running_at < page.index(running.name) < finished_at
    assert finished_at < page.index(over.name)


@pytest.mark.django_db
def test_joining_twice_shows_an_error_and_keeps_one_entry(client, make_player):
    tournament = make_tournament(make_player())
    player = make_player()
    client.force_login(player)
    page = client.post(f"/tournaments/{tournament.pk}/join/", follow=True).content.decode()
    assert "You are in." in page and f'data-player="{player.username}"' in page
    page = client.post(f"/tournaments/{tournament.pk}/join/", follow=True).content.decode()
    assert f"{player.username} is already entered." in page
    assert tournament.entries.count() == 1
    page = client.post(f"/tournaments/{tournament.pk}/withdraw/", follow=True).content.decode()
    assert "You have withdrawn." in page and not tournament.entries.exists()


@pytest.mark.django_db
def test_the_live_part_carries_its_version(client, make_player):
    tournament = make_tournament(make_player())
    services.tournament_join(tournament_id=tournament.pk, user=make_player())
    response = client.get(f"/tournaments/{tournament.pk}/live/")
    tournament.refresh_from_db()
    assert response["X-Tournament-Version"] == str(tournament.version) == "1"
    assert 'id="standings"' in response.content.decode()


@pytest.mark.django_db
def test_the_profile_lists_a_players_tournaments_with_their_place(client, make_player):
    creator, winner, loser = make_player(), make_player(), make_player()
    tournament = make_tournament(creator, name="Garden Open", rounds=1)
    for player in (winner, loser):
        services.tournament_join(tournament_id=tournament.pk, user=player)
    make_due(tournament)
    services.tournament_advance(tournament_id=tournament.pk)
    pairing = tournament.pairings.get()
    while mover_of(pairing.game) != loser:
        state = pairing.game.engine_state()
        games.move_play(
            game_id=pairing.game_id,
            user=winner,
            ply=pairing.game.ply,
            move=state.view(state.to_move).legal_moves()[0],
        )
    games.game_resign(game_id=pairing.game_id, user=loser)
    games.game_score(game_id=pairing.game_id)
    services.tournament_advance(tournament_id=tournament.pk)

    panel = client.get(f"/@/{winner.username}/").content.decode()
    assert "Garden Open" in panel and "finished · place 1" in panel
    panel = client.get(f"/@/{loser.username}/").content.decode()
    assert "finished · place 2" in panel
    assert "No tournaments yet" in client.get(f"/@/{creator.username}/").content.decode()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_the_socket_tells_watchers_each_new_version(redis_url):
    creator, player = await sync_to_async(new_player)(), await sync_to_async(new_player)()
    tournament = await sync_to_async(make_tournament)(creator)
    socket = await Socket.open(f"/ws/tournament/{tournament.pk}/")
    try:
        assert await socket.next() == {"type": "version", "version": 0}
        await sync_to_async(services.tournament_join)(tournament_id=tournament.pk, user=player)
        assert await socket.next() == {"type": "version", "version": 1}
    finally:
        await socket.close()


@pytest.mark.django_db(transaction=True)
@in_own_loop
async def test_the_socket_refuses_an_unknown_tournament():
    comm = WebsocketCommunicator(
        application, "/ws/tournament/999999/", headers=[(b"origin", b"http://testserver")]
    )
    connected, code = await comm.connect(timeout=10)
    assert not connected and code == 4404


def test_a_get_of_the_create_address_shows_the_form(client, make_player):
    client.force_login(make_player())
    response = client.get("/tournaments/new/")
    assert response.status_code == 200 and "Create a tournament" in response.content.decode()


def test_the_form_defaults_to_a_size_every_format_takes_and_names_each_formats_fields():
    from tournaments.formats import FORMATS
    from tournaments.forms import TournamentForm

    form = TournamentForm()
    assert all(form.fields["max_players"].initial <= fmt.most_players for fmt in FORMATS)
    html = str(form["rounds"])
    assert 'data-formats="swiss swiss_tables"' in html
    assert 'data-formats="arena"' in str(form["duration_minutes"])
    assert "round_robin:10" in str(form["max_players"])


def test_a_full_event_offers_no_join_and_no_bot(client, make_player, make_bot):
    creator = make_player()
    make_bot()
    tournament = make_tournament(creator, max_players=2)
    services.tournament_join(tournament_id=tournament.pk, user=creator)
    services.tournament_join(tournament_id=tournament.pk, user=make_player())
    client.force_login(creator)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Enter a bot" not in page
    client.force_login(make_player())
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "This tournament is full." in page and ">Join<" not in page
