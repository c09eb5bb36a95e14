"""Creating, joining, withdrawing and advancing tournaments against the real database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games import services as games
from games.models import Game
from tests.tournaments.conftest import make_due, make_tournament, mover_of
from tournaments import selectors, services
from tournaments.models import Entry, Pairing, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": "  "}, "name"),
        ({"kind": "chess"}, "kind"),
        ({"format": "knockout"}, "format"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": None}, "rounds"),
        ({"format": "arena", "duration_minutes": None}, "duration_minutes"),
        ({"format": "round_robin", "rounds": None, "max_players": 11}, "max_players"),
        ({"format": "round_robin", "rounds": 4}, "rounds"),
        ({"format": "swiss_tables", "table_size": 4}, "format"),
        ({"kind": "topiary", "format": "swiss_tables", "table_size": 5}, "table_size"),
        ({"kind": "topiary", "table_size": 3}, "table_size"),
        (
            {"kind": "topiary", "format": "swiss_tables", "table_size": 4, "max_players": 3},
            "max_players",
        ),
        (
            {
                "kind": "topiary",
                "format": "swiss_tables",
                "table_size": 4,
                "place_points": {"4": [0, 1, 2, 3]},
            },
            "place_points",
        ),
        ({"place_points": {"2": [1, 0]}}, "place_points"),
        ({"clock_initial": 0}, "clock_initial"),
        ({"clock_increment": -1}, "clock_increment"),
        ({"max_players": 1}, "max_players"),
        ({"starts_at": timezone.now() - timedelta(minutes=5)}, "starts_at"),
        ({"starts_at": timezone.now() + timedelta(days=400)}, "starts_at"),
    ],
)
def test_nonsense_settings_are_refused_by_name_and_nothing_is_created(
    make_player, overrides, field
):
    creator = make_player()
    with pytest.raises(ValidationError) as refused:
        make_tournament(creator, **overrides)
    assert field in refused.value.message_dict
    assert not Tournament.objects.exists()


def test_swiss_tables_get_default_points_per_place(make_player):
    tournament = make_tournament(
        make_player(), kind="topiary", format="swiss_tables", table_size=4, max_players=12
    )
    assert tournament.place_points == {"4": [3, 2, 1, 0], "3": [2, 1, 0]}


def test_joining_twice_full_started_or_finished_is_refused_and_changes_nothing(make_player):
    creator = make_player()
    tournament = make_tournament(creator, max_players=2)
    first, second, third = make_player(), make_player(), make_player()
    services.tournament_join(tournament_id=tournament.pk, user=first)
    with pytest.raises(ValidationError, match="already entered"):
        services.tournament_join(tournament_id=tournament.pk, user=first)
    services.tournament_join(tournament_id=tournament.pk, user=second)
    with pytest.raises(ValidationError, match="full"):
        services.tournament_join(tournament_id=tournament.pk, user=third)
    assert list(tournament.entries.values_list("user", flat=True)) == [first.pk, second.pk]

    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    services.tournament_withdraw(tournament_id=tournament.pk, user=second)
    with pytest.raises(ValidationError, match="already started"):
        services.tournament_join(tournament_id=tournament.pk, user=third)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(ValidationError, match="over"):
        services.tournament_join(tournament_id=tournament.pk, user=third)
    assert tournament.entries.count() == 2


def test_withdrawing_before_the_start_frees_the_place(make_player):
    tournament = make_tournament(make_player(), max_players=2)
    player = make_player()
    services.tournament_join(tournament_id=tournament.pk, user=player)
    services.tournament_withdraw(tournament_id=tournament.pk, user=player)
    assert not Entry.objects.exists()
    with pytest.raises(ValidationError, match="not in this tournament"):
        services.tournament_withdraw(tournament_id=tournament.pk, user=player)


def test_only_the_creator_enters_bots_and_only_bots(make_player, make_bot):
    creator, other = make_player(), make_player()
    tournament = make_tournament(creator)
    bot = make_bot()
    with pytest.raises(ValidationError, match="creator"):
        services.tournament_enter_bot(tournament_id=tournament.pk, by=other, bot=bot)
    with pytest.raises(ValidationError, match="not a bot"):
        services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=other)
    services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=bot)
    assert [e.user for e in tournament.entries.all()] == [bot]


def test_a_bot_account_joins_by_itself_only_where_the_creator_allows_bots(make_player):
    from api.services import bot_account_upgrade

    creator = make_player()
    outside = bot_account_upgrade(user=make_player())
    people_only = make_tournament(creator)
    with pytest.raises(ValidationError, match="does not let bots join"):
        services.tournament_join(tournament_id=people_only.pk, user=outside)
    assert not people_only.entries.exists()
    # The creator may still enter it, as any bot.
    services.tournament_enter_bot(tournament_id=people_only.pk, by=creator, bot=outside)
    assert [e.user for e in people_only.entries.all()] == [outside]

    open_to_bots = make_tournament(creator)
    Tournament.objects.filter(pk=open_to_bots.pk).update(bots_allowed=True)
    services.tournament_join(tournament_id=open_to_bots.pk, user=outside)
    assert [e.user for e in open_to_bots.entries.all()] == [outside]


def test_a_tournament_without_enough_players_is_cancelled_at_its_start(make_player):
    tournament = make_tournament(make_player())
    services.tournament_join(tournament_id=tournament.pk, user=make_player())
    make_due(tournament)
    services.tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert "Not enough players" in tournament.note
    # The page says why in the reader's language, whichever process cancelled it.
    assert tournament.note_text == "Not enough players: 1 entered."
    assert not Game.objects.exists()


def start_swiss(make_player, count, **overrides):
    tournament = make_tournament(make_player(), **overrides)
    players = [make_player() for _ in range(count)]
    for player in players:
        services.tournament_join(tournament_id=tournament.pk, user=player)
    make_due(tournament)
    return tournament, players


def test_advancing_twice_pairs_the_round_once(make_player):
    tournament, players = start_swiss(make_player, 5)
    services.tournament_advance(tournament_id=tournament.pk)
    services.tournament_advance(tournament_id=tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Pairing.objects.filter(tournament=tournament, game__isnull=False).count() == 2
    bye = Pairing.objects.get(tournament=tournament, is_bye=True)
    assert bye.players.get().points == 1.0
    seated = [
        p.entry.user for p in Pairing.objects.filter(tournament=tournament) for p in p.players.all()
    ]
    assert sorted(u.pk for u in seated) == sorted(u.pk for u in players)
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 2


def finish_round(tournament, number):
    """Every game of the round ends with the player to move resigning, then is scored."""
    for pairing in Pairing.objects.filter(round__tournament=tournament, round__number=number):
        if pairing.game_id and pairing.scored_at is None:
            games.game_resign(game_id=pairing.game_id, user=mover_of(pairing.game))
            games.game_score(game_id=pairing.game_id)


def test_a_withdrawn_player_is_not_paired_again_and_the_event_finishes(make_player):
    tournament, players = start_swiss(make_player, 4, rounds=2)
    services.tournament_advance(tournament_id=tournament.pk)
    quitter = players[0]
    services.tournament_withdraw(tournament_id=tournament.pk, user=quitter)
    finish_round(tournament, 1)
    services.tournament_advance(tournament_id=tournament.pk)
    second = Round.objects.get(tournament=tournament, number=2)
    in_round_two = {
        p.entry.user_id for pairing in second.pairings.all() for p in pairing.players.all()
    }
    assert quitter.pk not in in_round_two and len(in_round_two) == 3
    assert second.pairings.filter(is_bye=True).count() == 1

    finish_round(tournament, 2)
    services.tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = selectors.tournament_standings(tournament)
    assert len(standings) == 4
    # Round 1: two games; round 2: one game and a bye.
    assert sum(row.score for row in standings) == 2 + 1 + 1


def test_a_round_robin_player_who_withdraws_loses_the_rest_by_forfeit(make_player):
    tournament, players = start_swiss(make_player, 4, format="round_robin", rounds=None)
    services.tournament_advance(tournament_id=tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 3
    quitter = players[0]
    services.tournament_withdraw(tournament_id=tournament.pk, user=quitter)
    finish_round(tournament, 1)
    services.tournament_advance(tournament_id=tournament.pk)

    second = Round.objects.get(tournament=tournament, number=2)
    forfeit = next(
        p for p in second.pairings.all() if quitter.pk in {q.entry.user_id for q in p.players.all()}
    )
    assert forfeit.game is None and forfeit.scored_at is not None
    points = {q.entry.user_id: (q.points, q.forfeit) for q in forfeit.players.all()}
    opponent = next(pk for pk in points if pk != quitter.pk)
    assert points == {quitter.pk: (0.0, False), opponent: (1.0, True)}
    other = next(p for p in second.pairings.all() if p.pk != forfeit.pk)
    assert other.game.status == Game.Status.ACTIVE

    page = selectors.tournament_standings(tournament)
    assert next(r for r in page if r.entry.user == quitter).entry.withdrawn_at is not None
