"""What issue 45's walk found, as the creator, a player and a program meet it: cancelling,
editing and withdrawing a bot (the creator only), a cancelled event without standings,
the tie-breaks explained, an arena's games in pages, one time-control notation, the JSON's
real start and end, and the way from an event's game to the next one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games import services as games
from games.models import Game
from kit.text import clock_notation
from tests.tournaments.conftest import make_due, make_tournament, mover_of, new_bot, new_player
from tournaments import selectors, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_only_the_creator_cancels_an_upcoming_event_and_it_shows_no_standings(client):
    creator, other = new_player(), new_player()
    tournament = make_tournament(creator)
    services.tournament_join(tournament_id=tournament.pk, user=other)
    services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=new_bot())

    client.force_login(other)
    assert 'id="cancel-tournament"' not in page(client, f"/tournaments/{tournament.pk}/")
    client.post(f"/tournaments/{tournament.pk}/cancel/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING
    with pytest.raises(ValidationError, match="Only the tournament's creator"):
        services.tournament_cancel(tournament_id=tournament.pk, by=other)

    client.force_login(creator)
    assert 'id="cancel-tournament"' in page(client, f"/tournaments/{tournament.pk}/")
    response = client.post(f"/tournaments/{tournament.pk}/cancel/")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.finished_at
    shown = page(client, f"/tournaments/{tournament.pk}/")
    assert "Cancelled by its creator." in shown
    assert 'id="standings"' not in shown and "Buchholz" not in shown
    # Over is over: neither a second cancel nor a start changes it.
    with pytest.raises(ValidationError):
        services.tournament_cancel(tournament_id=tournament.pk, by=creator)
    make_due(tournament)
    services.tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and not tournament.pairings.exists()


def test_once_started_an_event_cannot_be_cancelled_or_edited():
    creator = new_player()
    tournament = make_tournament(creator)
    for player in (creator, new_player()):
        services.tournament_join(tournament_id=tournament.pk, user=player)
    services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    with pytest.raises(ValidationError, match="already started"):
        services.tournament_cancel(tournament_id=tournament.pk, by=creator)
    with pytest.raises(ValidationError, match="already started"):
        services.tournament_edit(tournament_id=tournament.pk, by=creator, name="Renamed")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.name == "Spring Swiss"


def test_only_the_creator_edits_what_is_safe_before_the_start(client):
    creator, other = new_player(), new_player()
    tournament = make_tournament(creator, max_players=8)
    for player in (other, new_player(), new_player()):
        services.tournament_join(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    version = tournament.version

    client.force_login(other)
    response = client.post(f"/tournaments/{tournament.pk}/edit/", {"name": "Mine now"})
    assert response.status_code == 302
    with pytest.raises(ValidationError, match="Only the tournament's creator"):
        services.tournament_edit(tournament_id=tournament.pk, by=other, name="Mine now")
    tournament.refresh_from_db()
    assert tournament.name == "Spring Swiss" and tournament.version == version

    client.force_login(creator)
    form = page(client, f"/tournaments/{tournament.pk}/edit/")
    assert 'value="Spring Swiss"' in form and 'name="kind"' not in form
    starts = timezone.now() + timedelta(hours=3)
    response = client.post(
        f"/tournaments/{tournament.pk}/edit/",
        {
            "name": "Summer Swiss",
            "rounds": "5",
            "clock_minutes": "0.5",
            "clock_increment": "1",
            "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
            "max_players": "6",
            "rated": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.clock_initial) == ("Summer Swiss", 5, 30)
    assert tournament.max_players == 6 and tournament.rated and tournament.version > version
    assert "Summer Swiss" in page(client, f"/tournaments/{tournament.pk}/")

    # Bad settings, fewer places than players, or the game and format: refused, nothing changes.
    refusals = [
        ({"max_players": 2}, "3 players are entered already"),
        ({"rounds": 99}, "Choose between 1 and 30"),
        ({"starts_at": timezone.now() - timedelta(minutes=5)}, "The start time has passed"),
        ({"format": "arena"}, "cannot be changed"),
        ({"kind": "topiary"}, "cannot be changed"),
    ]
    for changes, reason in refusals:
        with pytest.raises(ValidationError, match=reason):
            services.tournament_edit(tournament_id=tournament.pk, by=creator, **changes)
    response = client.post(
        f"/tournaments/{tournament.pk}/edit/",
        {
            "name": "Summer Swiss",
            "rounds": "5",
            "clock_minutes": "0.5",
            "clock_increment": "1",
            "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
            "max_players": "2",
        },
    )
    assert (
        response.status_code == 200 and "3 players are entered already" in response.content.decode()
    )
    tournament.refresh_from_db()
    assert (tournament.max_players, tournament.kind, tournament.format) == (
        6,
        "wizards_garden",
        "swiss",
    )


def test_only_the_creator_withdraws_a_bot_before_or_during_the_event(client):
    creator, other = new_player(), new_player()
    tournament = make_tournament(creator, format="arena", rounds=None, duration_minutes=30)
    early, late = new_bot(), new_bot("greedy")
    for bot in (early, late):
        services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=bot)
    services.tournament_join(tournament_id=tournament.pk, user=other)

    client.force_login(other)
    client.post(f"/tournaments/{tournament.pk}/bots/withdraw/", {"bot": early.username})
    assert Entry.objects.filter(tournament=tournament, user=early).exists()
    with pytest.raises(ValidationError, match="Only the tournament's creator"):
        services.tournament_withdraw_bot(tournament_id=tournament.pk, by=other, bot=early)
    # A person is not withdrawn by the creator.
    with pytest.raises(ValidationError, match="not in this tournament"):
        services.tournament_withdraw_bot(tournament_id=tournament.pk, by=creator, bot=other)

    client.force_login(creator)
    shown = page(client, f"/tournaments/{tournament.pk}/")
    assert f'aria-label="Withdraw {early.username}"' in shown
    assert f'aria-label="Withdraw {other.username}"' not in shown
    client.post(f"/tournaments/{tournament.pk}/bots/withdraw/", {"bot": early.username})
    assert not Entry.objects.filter(tournament=tournament, user=early).exists()

    # Running: the bot plays no further game, its games so far stay.
    services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    services.tournament_withdraw_bot(tournament_id=tournament.pk, by=creator, bot=late)
    entry = Entry.objects.get(tournament=tournament, user=late)
    assert entry.withdrawn_at is not None
    game = Game.objects.get(pk=selectors.current_game_of(tournament, other))
    games.game_resign(game_id=game.pk, user=other)
    games.game_score(game_id=game.pk)
    services.tournament_advance(tournament_id=tournament.pk)
    assert selectors.current_game_of(tournament, other) is None
    with pytest.raises(ValidationError, match="not in this tournament"):
        services.tournament_withdraw_bot(tournament_id=tournament.pk, by=creator, bot=late)


def test_clock_notation_is_lichess_s():
    assert [clock_notation(s, i) for s, i in [(15, 0), (30, 1), (45, 0), (90, 2)]] == [
        "¼+0",
        "½+1",
        "¾+0",
        "1.5+2",
    ]
    assert [clock_notation(s, i) for s, i in [(60, 0), (180, 2), (20, 0), (600, 5)]] == [
        "1+0",
        "3+2",
        "0.33+0",
        "10+5",
    ]


def test_the_time_control_is_written_one_way_on_every_page_and_the_json(client):
    creator, other = new_player(), new_player()
    tournament = make_tournament(creator, clock_initial=30, clock_increment=1, rounds=1)
    for player in (creator, other):
        services.tournament_join(tournament_id=tournament.pk, user=player)
    client.force_login(creator)
    listing = client.get("/api/tournaments").json()
    upcoming = listing["upcoming"][0]
    assert (upcoming["time_control"], upcoming["clock_initial"]) == ("½+1", 30)
    assert upcoming["started_at"] is None and upcoming["finished_at"] is None

    services.tournament_start_early(tournament_id=tournament.pk, by=creator)
    game = Game.objects.get(pk=selectors.current_game_of(tournament, creator))
    during = [
        page(client, "/tournaments/"),
        page(client, f"/tournaments/{tournament.pk}/"),
        page(client, f"/game/{game.pk}/"),
        page(client, "/play/"),
    ]
    games.game_resign(game_id=game.pk, user=mover_of(game))
    games.game_score(game_id=game.pk)
    services.tournament_advance(tournament_id=tournament.pk)
    after = [page(client, f"/games/{game.pk}/replay/")]
    for shown in [*during, *after]:
        assert "½+1" in shown
        assert "0.5+1" not in shown and "30s+1" not in shown
    assert client.get(f"/api/games/{game.pk}/export").json()["time_control"] == "½+1"
    # The game page and the replay say which event the game belongs to.
    link = f'A game of <a href="/tournaments/{tournament.pk}/">Spring Swiss</a>'
    assert link in during[2] and link in after[0]

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    one = client.get(f"/api/tournaments/{tournament.pk}").json()
    assert one["started_at"] == tournament.started_at.isoformat()
    assert one["finished_at"] == tournament.finished_at.isoformat()
    assert one["starts_at"] == tournament.starts_at.isoformat() != one["started_at"]


def test_an_arena_page_pages_its_games_shows_sheets_and_explains_its_tie_break(client, monkeypatch):
    monkeypatch.setattr(selectors, "ARENA_GAMES_PAGE", 2)
    ann, bob = new_player(), new_player()
    tournament = make_tournament(ann, format="arena", rounds=None, duration_minutes=30)
    for player in (ann, bob):
        services.tournament_join(tournament_id=tournament.pk, user=player)
    services.tournament_start_early(tournament_id=tournament.pk, by=ann)
    client.force_login(ann)
    for _ in range(3):
        game = Game.objects.get(pk=selectors.current_game_of(tournament, ann))
        next_game = client.get(
            f"/tournaments/{tournament.pk}/next/", headers={"accept": "application/json"}
        ).json()
        assert next_game == {"game": game.pk, "url": f"/game/{game.pk}/", "waiting": True}
        assert client.get(f"/tournaments/{tournament.pk}/next/")["Location"] == f"/game/{game.pk}/"
        games.game_resign(game_id=game.pk, user=bob)
        games.game_score(game_id=game.pk)
        services.tournament_advance(tournament_id=tournament.pk)

    first_page = page(client, f"/tournaments/{tournament.pk}/")
    # Four games (three played, one on): two a page, newest first.
    assert first_page.count('class="pairing"') == 2
    assert "Page 1 of 2" in first_page and "?games=2" in first_page
    second_page = page(client, f"/tournaments/{tournament.pk}/?games=2")
    assert second_page.count('class="pairing"') == 2 and "Page 2 of 2" in second_page
    # The live part keeps the page being read.
    assert "Page 2 of 2" in page(client, f"/tournaments/{tournament.pk}/live/?games=2")
    # Ann's sheet: 2, 2, then 4 on a streak, and the flame while the next counts double.
    assert '<span class="">2</span><span class="">2</span><span class="sheet-double"' in first_page
    assert "On a streak: the next game counts double" in first_page
    assert 'id="arena-clock"' in first_page
    assert "Perf" in first_page and "the opponents&#x27; mean rating" in first_page
