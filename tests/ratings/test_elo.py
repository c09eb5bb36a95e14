"""The worked examples of docs/RATINGS.md, computed by ratings.elo."""

import pytest

from ratings import elo
from ratings.elo import Entrant


def after(entrants):
    return [round(outcome.after, 2) for outcome in elo.rate_game(entrants)]


def test_two_new_players_move_by_half_of_k():
    assert after([Entrant(1500, 0, 1), Entrant(1500, 0, 2)]) == [1520.0, 1480.0]


def test_favourite_gains_little_and_provisional_underdog_loses_with_k_40():
    assert elo.expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert after([Entrant(1600, 25, 1), Entrant(1400, 3, 2)]) == [1604.81, 1390.39]


def test_draw_moves_the_favourite_down():
    assert after([Entrant(1700, 30, 1), Entrant(1500, 40, 1)]) == [1694.81, 1505.19]


def test_k_drops_to_20_at_the_twentieth_rated_game():
    assert elo.k_factor(19) == 40
    assert elo.k_factor(20) == 20
    assert elo.is_provisional(19) and not elo.is_provisional(20)


def test_four_new_players_split_k_over_three_opponents():
    assert after([Entrant(1500, 0, rank) for rank in (1, 2, 3, 4)]) == [
        1520.0,
        1506.67,
        1493.33,
        1480.0,
    ]


def test_four_player_winner_moves_as_much_as_a_two_player_winner():
    four = elo.rate_game([Entrant(1500, 0, rank) for rank in (1, 2, 3, 4)])
    two = elo.rate_game([Entrant(1500, 0, 1), Entrant(1500, 0, 2)])
    assert four[0].change == pytest.approx(two[0].change)


def test_shared_victory_counts_as_a_draw_between_the_winners():
    outcomes = elo.rate_game([Entrant(1600, 25, 1), Entrant(1500, 5, 1), Entrant(1400, 0, 3)])
    assert [round(o.after, 2) for o in outcomes] == [1601.0, 1510.0, 1388.0]
    assert [o.score for o in outcomes] == [0.75, 0.75, 0.0]


def test_mixed_four_player_game():
    entrants = [
        Entrant(1620, 22, 2),
        Entrant(1480, 30, 1),
        Entrant(1550, 10, 4),
        Entrant(1390, 0, 3),
    ]
    assert after(entrants) == [1619.46, 1491.09, 1527.13, 1391.76]


def test_puzzle_attempt_is_a_game_against_the_puzzle():
    assert round(elo.rate_puzzle(1500, 0, 1700, solved=True).after, 2) == 1530.39
    assert round(elo.rate_puzzle(1500, 0, 1700, solved=False).after, 2) == 1490.39
    assert round(elo.rate_puzzle(1650, 30, 1500, solved=False).after, 2) == 1635.93


def test_a_game_needs_two_players():
    with pytest.raises(ValueError, match="at least 2 players"):
        elo.rate_game([Entrant(1500, 0, 1)])
