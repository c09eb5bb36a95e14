"""The format objects on their own: settings, pairing, points and tie-breaks per format.

Pure tests (no database) except where the registry meets the model, the form and
the create service.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.conftest import make_tournament
from tournaments.formats import (
    FORMATS,
    Arena,
    Record,
    RoundRobin,
    Swiss,
    SwissTables,
    format_for,
)
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.pairing import ArenaWaiting, Competitor
from tournaments.standings import ArenaGame, TableResult

SWISS, TABLES, ROUND_ROBIN, ARENA = (
    format_for(name) for name in ("swiss", "swiss_tables", "round_robin", "arena")
)


def settings(**given):
    """Creation settings a format judges, all valid for a 2-player Swiss unless given."""
    return {
        "table_size": 2,
        "rounds": 5,
        "duration_minutes": None,
        "max_players": 16,
        "place_points": None,
        **given,
    }


def event(**fields):
    """What a format reads of a tournament."""
    return SimpleNamespace(
        **{
            "table_size": 2,
            "rounds": None,
            "duration_minutes": None,
            "place_points": {},
            **fields,
        }
    )


def test_the_registry_names_each_format_once_and_finds_it_by_name():
    names = [fmt.name for fmt in FORMATS]
    assert names == ["swiss", "swiss_tables", "round_robin", "arena"]
    assert [type(format_for(name)) for name in names] == [Swiss, SwissTables, RoundRobin, Arena]
    with pytest.raises(KeyError, match="knockout"):
        format_for("knockout")


def test_model_and_form_offer_exactly_the_registered_formats():
    listed = [(fmt.name, fmt.label) for fmt in FORMATS]
    assert Tournament.Format.choices == listed
    assert list(TournamentForm().fields["format"].choices) == listed
    assert Tournament.Format.SWISS_TABLES == "swiss_tables"
    assert Tournament(format="arena").format_rules is ARENA


def test_the_form_says_which_formats_take_each_setting():
    fields = TournamentForm().fields
    assert fields["rounds"].help_text == "Swiss and Swiss tables only."
    assert fields["duration_minutes"].help_text == "Arena only."
    assert fields["place_points"].help_text.startswith("Swiss tables only,")


def test_swiss_needs_a_number_of_rounds_within_the_limit():
    assert SWISS.validate(settings()) == ({}, {})
    for rounds in (None, 0, 31):
        errors, _ = SWISS.validate(settings(rounds=rounds))
        assert errors == {"rounds": "Choose between 1 and 30 rounds."}


def test_round_robin_and_arena_refuse_rounds_each_saying_why():
    errors, _ = ROUND_ROBIN.validate(settings(rounds=4, max_players=6))
    assert errors == {
        "rounds": "A round robin plays everyone once: its rounds follow from the players."
    }
    errors, _ = ARENA.validate(settings(rounds=4, duration_minutes=30))
    assert errors == {"rounds": "An arena runs for a duration, not a number of rounds."}


def test_only_the_arena_runs_for_a_duration():
    assert ARENA.validate(settings(rounds=None, duration_minutes=720)) == ({}, {})
    for minutes in (None, 0, 721):
        errors, _ = ARENA.validate(settings(rounds=None, duration_minutes=minutes))
        assert errors == {"duration_minutes": "An arena lasts 1 to 720 minutes."}
    errors, _ = SWISS.validate(settings(duration_minutes=30))
    assert errors == {"duration_minutes": "Only an arena has a duration."}


def test_player_limits_follow_the_format():
    assert ROUND_ROBIN.validate(settings(rounds=None, max_players=10))[0] == {}
    errors, _ = ROUND_ROBIN.validate(settings(rounds=None, max_players=11))
    assert errors == {"max_players": "Allow between 2 and 10 players."}
    errors, _ = TABLES.validate(settings(table_size=4, max_players=3))
    assert errors == {"max_players": "Allow between 4 and 500 players."}
    assert [SWISS.min_players(2), TABLES.min_players(3), TABLES.min_players(4)] == [2, 3, 4]
    assert ARENA.min_players(2) == ROUND_ROBIN.min_players(2) == 2


def test_swiss_tables_fill_in_default_points_and_refuse_a_better_place_scoring_less():
    errors, points = TABLES.validate(settings(table_size=4, place_points={"4": [5, 3, 1, 0]}))
    assert errors == {}
    assert points == {"4": [5.0, 3.0, 1.0, 0.0], "3": [2.0, 1.0, 0.0]}
    errors, points = TABLES.validate(settings(table_size=3))
    assert points == {"3": [2.0, 1.0, 0.0], "2": [1.0, 0.0]}
    errors, _ = TABLES.validate(settings(table_size=4, place_points={"3": [0, 1, 2]}))
    assert errors == {"place_points": "a better place cannot score fewer points than a worse one"}
    errors, _ = TABLES.validate(settings(table_size=4, place_points={"4": [3, 2, 1]}))
    assert errors == {"place_points": "give 4 numbers, one per place, for tables of 4"}
    for fmt in (SWISS, ROUND_ROBIN, ARENA):
        errors, _ = fmt.validate(settings(place_points={"2": [1, 0]}))
        assert errors["place_points"] == "Points per place are for Swiss tables only."


@pytest.mark.django_db
def test_swiss_tables_of_a_size_no_table_seats_is_refused_not_a_crash(make_player):
    # Points per place used to be looked up for tables of 1 here (a KeyError, a 500 page).
    with pytest.raises(ValidationError) as refused:
        make_tournament(make_player(), format="swiss_tables", table_size=2)
    assert "format" in refused.value.message_dict
    assert not Tournament.objects.exists()


def test_each_format_titles_and_measures_its_event():
    assert SWISS.title(event()) == "Swiss"
    assert TABLES.title(event(table_size=3)) == "Swiss tables of 3"
    assert SWISS.length(event(rounds=1)) == "1 round"
    assert SWISS.length(event(rounds=7)) == "7 rounds"
    assert ROUND_ROBIN.length(event()) == "everyone plays everyone"
    assert ROUND_ROBIN.length(event(rounds=5)) == "5 rounds"
    assert ARENA.length(event(duration_minutes=45)) == "45 minutes"


def field(*ratings):
    return [Competitor(id=i, rating=r) for i, r in enumerate(ratings, start=1)]


def test_swiss_pairs_one_round_at_a_time_and_round_robin_all_at_the_start():
    players = field(1500, 1600, 1700, 1800, 1900)
    (first,) = SWISS.first_rounds(players, 2)
    assert len(first.tables) == 2 and len(first.byes) == 1
    schedule = ROUND_ROBIN.first_rounds(players, 2)
    assert len(schedule) == 5
    met = {frozenset(t) for plan in schedule for t in plan.tables}
    assert len(met) == 10  # everyone meets everyone once
    # Seeded by rating: the strongest holds the fixed seat, whoever joined first.
    assert schedule[0].tables[0][0] == 5
    assert ROUND_ROBIN.fixed_schedule and not SWISS.fixed_schedule
    with pytest.raises(NotImplementedError):
        ROUND_ROBIN.pair_round(players, 2)


def test_swiss_tables_seat_the_chosen_size_and_one_less():
    (first,) = TABLES.first_rounds(field(*[1500] * 7), 4)
    assert sorted(len(t) for t in first.tables) == [3, 4]
    assert first.byes == ()


def test_arena_pairs_waiting_players_and_has_no_rounds():
    assert not ARENA.has_rounds and ARENA.timed
    with pytest.raises(NotImplementedError):
        ARENA.first_rounds(field(1500, 1500), 2)
    pairs = ARENA.pair_waiting([ArenaWaiting(id=1), ArenaWaiting(id=2)], [1, 2])
    assert [set(p) for p in pairs] == [{1, 2}]
    with pytest.raises(NotImplementedError):
        SWISS.pair_waiting([], [])


def no_history(seat):
    return []


def scored(fmt, tournament, places, history=no_history):
    return [(o.points, o.on_fire) for o in fmt.score_game(tournament, places, history)]


def test_two_player_formats_score_a_win_a_draw_and_an_abort():
    for fmt in (SWISS, ROUND_ROBIN):
        assert scored(fmt, event(), [1, 2]) == [(1.0, False), (0.0, False)]
        assert scored(fmt, event(), [2, 1]) == [(0.0, False), (1.0, False)]
        assert scored(fmt, event(), [1, 1]) == [(0.5, False), (0.5, False)]
        assert scored(fmt, event(), [None, None]) == [(0.0, False), (0.0, False)]


def test_swiss_tables_score_places_with_the_table_sizes_points_and_ties_share():
    tournament = event(table_size=4, place_points={"4": [5, 3, 1, 0], "3": [2, 1, 0]})
    assert [p for p, _ in scored(TABLES, tournament, [2, 1, 4, 3])] == [3, 5, 0, 1]
    assert [p for p, _ in scored(TABLES, tournament, [1, 1, 3])] == [1.5, 1.5, 0]
    assert [p for p, _ in scored(TABLES, tournament, [None] * 4)] == [0.0] * 4


def test_arena_doubles_points_after_two_wins_in_a_row():
    histories = {0: ["win", "win"], 1: ["loss", "loss"]}
    assert scored(ARENA, event(), [1, 2], histories.get) == [(4, True), (0, False)]
    assert scored(ARENA, event(), [1, 1], histories.get) == [(2, True), (1, False)]
    assert scored(ARENA, event(), [1, 2]) == [(2, False), (0, False)]
    # An aborted game scores nothing and breaks the streak.
    assert scored(ARENA, event(), [None, None], histories.get) == [(0, True), (0, False)]


def test_byes_are_a_win_in_swiss_second_place_at_tables_and_nothing_in_a_round_robin():
    assert SWISS.bye_points(event()) == 1.0
    tables = event(table_size=4, place_points={"4": [5, 3, 1, 0], "3": [2, 1, 0]})
    assert TABLES.bye_points(tables) == 3.0
    assert ROUND_ROBIN.bye_points(event()) == 0.0
    assert ROUND_ROBIN.forfeit_points(event()) == 1.0


def test_each_format_orders_standings_by_its_own_tie_breaks():
    # 1 beats 2 and 3, 3 beats 4, 4 beats 2: 3 and 4 have one win each. 3 met the
    # leader (more Buchholz, more table-mates' points); 4 met stronger-rated players
    # (the better performance).
    results = [
        TableResult(points={1: 1, 2: 0}),
        TableResult(points={3: 1, 4: 0}),
        TableResult(points={1: 1, 3: 0}),
        TableResult(points={4: 1, 2: 0}),
    ]
    sides = [
        ArenaGame(player=a, opponent=b, points=2 * int(won), outcome=won)
        for result in results
        for a, won in result.points.items()
        for b in result.points
        if b != a
    ]
    record = Record(
        players=[1, 2, 3, 4],
        results=results,
        games=sides,
        ratings={1: 1500, 2: 2400, 3: 1500, 4: 2000},
    )
    orders = {fmt.name: [row.player for row in fmt.standings(record)] for fmt in FORMATS}
    assert orders == {
        "swiss": [1, 3, 4, 2],
        "swiss_tables": [1, 3, 4, 2],
        "round_robin": [1, 3, 4, 2],
        "arena": [1, 4, 3, 2],
    }
    for fmt in FORMATS:
        assert {len(row.tiebreaks) for row in fmt.standings(record)} == {len(fmt.tiebreak_names)}
    assert SWISS.tiebreak_names == ROUND_ROBIN.tiebreak_names == ("Buchholz", "Sonneborn-Berger")
    assert TABLES.tiebreak_names == ("Table-mates' points",)
    assert ARENA.tiebreak_names == ("Performance",)
