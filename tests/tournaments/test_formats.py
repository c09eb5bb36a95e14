"""Swiss tables and arenas driven through real games (people playing, games really scored)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services as games
from games.models import Game
from tests.tournaments.conftest import make_due, make_tournament, mover_of
from tournaments import selectors, services
from tournaments.models import Pairing, PairingPlayer, Round, Tournament

pytestmark = pytest.mark.django_db


def play_out(game: Game) -> Game:
    """Every player in turn plays their first legal move until the end; then the game is scored."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.engine_state()
        seat = game.seats.get(index=state.to_move)
        move = state.view(seat.index).legal_moves()[0]
        games.move_play(game_id=game.pk, user=seat.user, ply=game.ply, move=move)
    games.game_score(game_id=game.pk)
    game.refresh_from_db()
    return game


def entered(make_player, count: int, **settings) -> tuple[Tournament, list]:
    tournament = make_tournament(make_player(), **settings)
    players = [make_player() for _ in range(count)]
    for player in players:
        services.tournament_join(tournament_id=tournament.pk, user=player)
    make_due(tournament)
    return tournament, players


def test_swiss_tables_seat_seven_at_a_four_and_a_three_and_score_places(make_player):
    tournament, _ = entered(
        make_player,
        7,
        kind="topiary",
        format="swiss_tables",
        table_size=4,
        rounds=2,
        max_players=8,
        place_points={"4": [5, 3, 1, 0]},
    )
    services.tournament_advance(tournament_id=tournament.pk)
    first = Round.objects.get(tournament=tournament, number=1)
    tables = list(first.pairings.all())
    assert sorted(t.players.count() for t in tables) == [3, 4]
    for table in tables:
        game = play_out(table.game)
        assert game.seat_count == table.players.count()
    services.tournament_advance(tournament_id=tournament.pk)

    points_of = {4: [5, 3, 1, 0], 3: [2, 1, 0]}
    for table in tables:
        seats = {s.index: s.rank for s in table.game.seats.all()}
        for player in table.players.all():
            ranks = sorted(seats.values())
            start = ranks.index(player.place)
            tied = ranks.count(player.place)
            share = points_of[len(seats)][start : start + tied]
            assert player.place == seats[player.seat]
            assert player.points == sum(share) / tied

    second = Round.objects.get(tournament=tournament, number=2)
    assert second.pairings.count() == 2
    standings = selectors.tournament_standings(tournament)
    assert [row.score for row in standings] == sorted(
        (row.score for row in standings), reverse=True
    )


def test_arena_pairs_finishers_at_once_and_doubles_points_on_a_streak(make_player):
    tournament, (ann, bob) = entered(
        make_player, 2, format="arena", rounds=None, duration_minutes=30
    )
    services.tournament_advance(tournament_id=tournament.pk)
    streak = []
    for _ in range(3):
        pairing = Pairing.objects.get(tournament=tournament, scored_at__isnull=True)
        # Bob resigns whenever it is his turn; Ann passes the turn with a legal move.
        game = pairing.game
        while mover_of(game) != bob:
            state = game.engine_state()
            games.move_play(
                game_id=game.pk,
                user=ann,
                ply=game.ply,
                move=state.view(state.to_move).legal_moves()[0],
            )
        games.game_resign(game_id=game.pk, user=bob)
        games.game_score(game_id=game.pk)
        services.tournament_advance(tournament_id=tournament.pk)
        won = PairingPlayer.objects.get(pairing=pairing, entry__user=ann)
        streak.append((won.points, won.on_fire))
    assert streak == [(2, False), (2, False), (4, True)]
    # Each finished game was followed at once by the next one.
    assert Pairing.objects.filter(tournament=tournament, scored_at__isnull=True).count() == 1

    rows = selectors.tournament_standings(tournament)
    assert [(r.entry.user, r.score, r.games) for r in rows] == [(ann, 8, 3), (bob, 0, 3)]

    # Time is up: nothing new starts, and the event ends with the last game.
    tournament.refresh_from_db()
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=tournament.started_at - timedelta(minutes=31)
    )
    last = Pairing.objects.get(tournament=tournament, scored_at__isnull=True)
    games.game_abort(game_id=last.game_id, user=mover_of(last.game))
    services.tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Pairing.objects.filter(tournament=tournament).count() == 4
