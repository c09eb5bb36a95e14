"""Standings and tie-breaks, checked against tables worked out by hand."""

from tournaments.standings import (
    ArenaGame,
    TableResult,
    arena_standings,
    game_outcome,
    performance_rating,
    swiss_standings,
    tables_standings,
)


def game(first, second, first_points):
    return TableResult(points={first: first_points, second: 1 - first_points})


def test_swiss_scores_buchholz_and_sonneborn_berger_by_hand():
    # A beats B, C-D drawn; A-C drawn, B beats D; A beats D, B beats C.
    a, b, c, d = 1, 2, 3, 4
    results = [
        game(a, b, 1),
        game(c, d, 0.5),
        game(a, c, 0.5),
        game(b, d, 1),
        game(a, d, 1),
        game(b, c, 1),
    ]
    rows = swiss_standings([d, c, b, a], results)
    assert [(r.rank, r.player, r.score, r.tiebreaks, r.games) for r in rows] == [
        (1, a, 2.5, (3.5, 3.0), 3),
        (2, b, 2.0, (4.0, 1.5), 3),
        (3, c, 1.0, (5.0, 1.5), 3),
        (4, d, 0.5, (5.5, 0.5), 3),
    ]


def test_buchholz_then_sonneborn_berger_split_equal_scores():
    # 1 beats 2 and 3; 3 beats 4; 4 beats 2: 3 and 4 both have 1 point,
    # 3 met the leader (Buchholz 3), 4 met the last (Buchholz 1).
    rows = swiss_standings(
        [1, 2, 3, 4], [game(1, 2, 1), game(3, 4, 1), game(1, 3, 1), game(4, 2, 1)]
    )
    assert [(r.rank, r.player) for r in rows] == [(1, 1), (2, 3), (3, 4), (4, 2)]
    assert rows[1].tiebreaks[0] == 3 and rows[2].tiebreaks[0] == 1


def test_a_bye_counts_for_the_score_and_not_the_tie_breaks():
    # 2 had a bye and lost to 1; 3 had a bye in this round: all three have a point.
    rows = swiss_standings([1, 2, 3], [game(1, 2, 1)], bye_points={2: 1.0, 3: 1.0})
    by_player = {r.player: r for r in rows}
    assert by_player[3].score == 1.0 and by_player[3].tiebreaks == (0.0, 0.0)
    assert by_player[3].games == 0
    assert by_player[1].tiebreaks == (1.0, 1.0) and by_player[2].tiebreaks == (1.0, 0.0)
    assert [r.player for r in rows] == [1, 2, 3] and [r.rank for r in rows] == [1, 2, 3]


def test_players_equal_on_everything_share_a_rank():
    rows = swiss_standings([1, 2, 3, 4], [game(1, 2, 0.5), game(3, 4, 0.5)])
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert [r.player for r in rows] == [1, 2, 3, 4]


def test_tables_break_ties_by_the_table_mates_points():
    # Round 1: 1,2,3 finish in that order (2/1/0); 4,5,6 likewise.
    # Round 2: 1,5,6 -> 5 first, 6, 1; 2,3,4 -> 4 first, 2, 3.
    results = [
        TableResult({1: 2, 2: 1, 3: 0}),
        TableResult({4: 2, 5: 1, 6: 0}),
        TableResult({5: 2, 6: 1, 1: 0}),
        TableResult({4: 2, 2: 1, 3: 0}),
    ]
    rows = tables_standings([1, 2, 3, 4, 5, 6], results)
    score = {r.player: r.score for r in rows}
    assert score == {1: 2, 2: 2, 3: 0, 4: 4, 5: 3, 6: 1}
    mates = {r.player: r.tiebreaks[0] for r in rows}
    # 1 sat with 2, 3 (2+0) and 5, 6 (3+1): 6. 2 sat with 1, 3 (2+0) and 4, 3 (4+0): 6.
    assert mates[1] == 6 and mates[2] == 6
    # 5 sat with 4, 6 (4+1) and with 6, 1 (1+2).
    assert mates[5] == (4 + 1) + (1 + 2)
    assert [r.player for r in rows][:2] == [4, 5]
    assert {r.player for r in rows if r.rank == 3} == {1, 2}


def test_performance_is_mean_opponent_rating_plus_400_per_net_win():
    assert performance_rating([(1500, 1.0), (1700, 0.0)]) == 1600
    assert performance_rating([(1500, 1.0), (1500, 1.0)]) == 1900
    assert performance_rating([(1600, 0.5)]) == 1600
    assert performance_rating([]) == 0


def test_arena_standings_order_by_points_then_performance():
    ratings = {1: 1500, 2: 1500, 3: 1900, 4: 1500}
    games = [
        ArenaGame(player=1, opponent=2, points=2, outcome=1.0),
        ArenaGame(player=2, opponent=1, points=0, outcome=0.0),
        ArenaGame(player=3, opponent=4, points=2, outcome=1.0),
        ArenaGame(player=4, opponent=3, points=0, outcome=0.0),
    ]
    rows = arena_standings([1, 2, 3, 4], games, ratings)
    assert [r.player for r in rows] == [1, 3, 4, 2]
    # 3 beat a 1500 player (performance 1900); 1 beat a 1500 player too (1900): shared.
    assert rows[0].tiebreaks == rows[1].tiebreaks == (1900,)
    assert rows[0].rank == rows[1].rank == 1
    assert {r.player for r in rows[2:]} == {2, 4}
    # 4 lost to a 1900 player, 2 to a 1500 player: 4's performance is higher.
    assert [r.player for r in rows[2:]] == [4, 2]


def test_outcomes_from_places():
    assert game_outcome(1, [2]) == 1.0
    assert game_outcome(2, [1]) == 0.0
    assert game_outcome(1, [1]) == 0.5
    assert game_outcome(None, [1]) == 0.0
