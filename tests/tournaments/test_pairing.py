"""Pairing rules over many random fields: each rule holds whenever the field allows it.

A brute-force search over every possible round (a different, simpler implementation)
says what is avoidable; the pairing must do at least as well, rule by rule in order:
byes unique, then no rematches, then first moves balanced within one.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    ArenaWaiting,
    Competitor,
    arena_pair,
    arena_pair_cap,
    arena_points,
    place_points,
    round_robin_schedule,
    swiss_pair,
    swiss_tables,
    table_sizes,
)


@st.composite
def fields(draw, max_players=9):
    """A field in the middle of a Swiss: scores, who met whom, first moves, byes."""
    count = draw(st.integers(2, max_players))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=count, max_size=count, unique=True))
    pairs = list(combinations(ids, 2))
    met = draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    players = []
    for pid in ids:
        games = draw(st.integers(0, 6))
        balance = draw(st.sampled_from([-1, 0, 1])) if games % 2 else 0
        players.append(
            Competitor(
                id=pid,
                score=draw(st.integers(0, 12)) / 2,
                opponents=frozenset(b if a == pid else a for a, b in met if pid in (a, b)),
                firsts=(games + balance) // 2,
                seconds=(games - balance) // 2,
                byes=draw(st.integers(0, 1)),
                rating=draw(st.integers(1000, 2000)),
            )
        )
    return players


def all_rounds(ids: list[int]):
    """Every way to pair ``ids`` (one bye when odd), by brute force."""
    if not ids:
        yield [], []
        return
    if len(ids) % 2:
        for bye in ids:
            rest = [i for i in ids if i != bye]
            for pairs, _ in all_rounds(rest):
                yield pairs, [bye]
        return
    first, rest = ids[0], ids[1:]
    for partner in rest:
        remaining = [i for i in rest if i != partner]
        for pairs, byes in all_rounds(remaining):
            yield [(first, partner), *pairs], byes


def faults(players: list[Competitor], pairs, byes) -> tuple[int, int, int]:
    """(second byes, rematches, players pushed out of -1..+1) of a round."""
    by_id = {c.id: c for c in players}
    second_byes = sum(by_id[b].byes > 0 for b in byes)
    rematches = sum(b in by_id[a].opponents for a, b in pairs)
    unbalanced = 0
    for a, b in pairs:
        low, high = sorted((by_id[a].balance, by_id[b].balance))
        unbalanced += not (low <= 0 <= high)
    return second_byes, rematches, unbalanced


@settings(max_examples=300, deadline=None)
@given(fields())
def test_swiss_round_is_as_good_as_any_round_rule_by_rule(players):
    result = swiss_pair(players)
    seated = [p for table in result.tables for p in table] + list(result.byes)
    assert sorted(seated) == sorted(c.id for c in players)
    assert all(len(table) == 2 for table in result.tables)
    assert len(result.byes) == len(players) % 2

    best = min(faults(players, pairs, byes) for pairs, byes in all_rounds([c.id for c in players]))
    assert faults(players, result.tables, result.byes) == best


@settings(max_examples=300, deadline=None)
@given(fields())
def test_first_mover_is_the_one_owed_a_first_move(players):
    by_id = {c.id: c for c in players}
    for first, second in swiss_pair(players).tables:
        a, b = by_id[first], by_id[second]
        low, high = sorted((a.balance, b.balance))
        if low <= 0 <= high:
            assert abs(a.balance + 1) <= 1 and abs(b.balance - 1) <= 1


def play_swiss(count: int, rounds: int, outcomes):
    """Run a whole Swiss with the given results; returns each round's pairing and the field."""
    players = {i: Competitor(id=i, rating=2000 - i) for i in range(1, count + 1)}
    history = []
    for _ in range(rounds):
        result = swiss_pair(list(players.values()))
        history.append((dict(players), result))
        for first, second in result.tables:
            a, b = players[first], players[second]
            points = outcomes.draw(st.sampled_from([1.0, 0.5, 0.0]))
            players[first] = Competitor(
                id=a.id,
                score=a.score + points,
                opponents=a.opponents | {b.id},
                firsts=a.firsts + 1,
                seconds=a.seconds,
                byes=a.byes,
                rating=a.rating,
            )
            players[second] = Competitor(
                id=b.id,
                score=b.score + 1 - points,
                opponents=b.opponents | {a.id},
                firsts=b.firsts,
                seconds=b.seconds + 1,
                byes=b.byes,
                rating=b.rating,
            )
        for bye in result.byes:
            c = players[bye]
            players[bye] = Competitor(
                id=c.id,
                score=c.score + 1,
                opponents=c.opponents,
                firsts=c.firsts,
                seconds=c.seconds,
                byes=c.byes + 1,
                rating=c.rating,
            )
    return history, players


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 24), st.data())
def test_a_whole_swiss_never_gives_a_second_bye(count, data):
    rounds = data.draw(st.integers(1, count - 1 if count % 2 == 0 else count))
    _, players = play_swiss(count, rounds, data)
    assert all(c.byes <= 1 for c in players.values())
    assert sum(c.byes for c in players.values()) == rounds * (count % 2)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 9), st.data())
def test_a_whole_swiss_avoids_rematches_and_imbalance_whenever_it_can(count, data):
    rounds = data.draw(st.integers(1, count + 1))
    history, _ = play_swiss(count, rounds, data)
    for before, result in history:
        field = list(before.values())
        best = min(faults(field, p, b) for p, b in all_rounds([c.id for c in field]))
        assert faults(field, result.tables, result.byes) == best


def test_first_round_pairs_neighbours_in_rating_with_alternating_first_moves():
    players = [Competitor(id=i, rating=2000 - 10 * i) for i in range(1, 9)]
    result = swiss_pair(players)
    assert result.tables == ((1, 2), (4, 3), (5, 6), (8, 7))
    assert result.byes == ()


def test_leaders_meet_each_other():
    players = [
        Competitor(id=1, score=2, opponents=frozenset({3, 5}), firsts=1, seconds=1),
        Competitor(id=2, score=2, opponents=frozenset({4, 6}), firsts=1, seconds=1),
        Competitor(id=3, score=1, opponents=frozenset({1, 6}), firsts=1, seconds=1),
        Competitor(id=4, score=1, opponents=frozenset({2, 5}), firsts=1, seconds=1),
        Competitor(id=5, score=0, opponents=frozenset({1, 4}), firsts=1, seconds=1),
        Competitor(id=6, score=0, opponents=frozenset({2, 3}), firsts=1, seconds=1),
    ]
    tables = {frozenset(t) for t in swiss_pair(players).tables}
    assert tables == {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}


def test_bye_goes_to_the_lowest_score_without_one():
    players = [
        Competitor(id=1, score=2),
        Competitor(id=2, score=1),
        Competitor(id=3, score=0, byes=1),
        Competitor(id=4, score=1),
        Competitor(id=5, score=0.5),
    ]
    assert swiss_pair(players).byes == (5,)


@pytest.mark.parametrize("count", range(2, 11))
def test_round_robin_everyone_meets_everyone_once_with_first_moves_balanced(count):
    ids = [100 + i for i in range(count)]
    schedule = round_robin_schedule(ids)
    assert len(schedule) == (count if count % 2 else count - 1)
    met = []
    balance = dict.fromkeys(ids, 0)
    for result in schedule:
        seated = [p for t in result.tables for p in t] + list(result.byes)
        assert sorted(seated) == ids
        assert len(result.byes) == count % 2
        for first, second in result.tables:
            met.append(frozenset((first, second)))
            balance[first] += 1
            balance[second] -= 1
        assert all(abs(b) <= 1 for b in balance.values())
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(ids, 2)), key=sorted
    )
    byes = [b for result in schedule for b in result.byes]
    assert len(byes) == len(set(byes))


def test_round_robin_refuses_a_player_listed_twice():
    with pytest.raises(ValueError, match="twice"):
        round_robin_schedule([1, 2, 2])


@given(st.integers(0, 60), st.sampled_from([3, 4]))
def test_table_sizes_seat_everyone_at_tables_of_the_size_or_one_less(count, size):
    sizes, byes = table_sizes(count, size)
    assert sum(sizes) + byes == count
    assert all(s in (size, size - 1) for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # Byes only when no mix of the two sizes seats everyone, and then as few as possible.
    seatable = {a * size + b * (size - 1) for a in range(count + 1) for b in range(count + 1)}
    assert byes == min(count - s for s in seatable if s <= count)
    assert sizes.count(size - 1) <= max(1, len(sizes))


@st.composite
def table_fields(draw):
    size = draw(st.sampled_from([3, 4]))
    count = draw(st.integers(size, 9))
    ids = list(range(1, count + 1))
    met = draw(st.sets(st.sampled_from(list(combinations(ids, 2)))))
    players = [
        Competitor(
            id=pid,
            score=draw(st.integers(0, 12)),
            opponents=frozenset(b if a == pid else a for a, b in met if pid in (a, b)),
            byes=draw(st.integers(0, 1)),
        )
        for pid in ids
    ]
    return size, players


def all_tablings(ids: list[int], sizes: list[int]):
    """Every way to seat ``ids`` at tables of the given sizes, by brute force."""
    if not sizes:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for size in set(sizes):
        others = list(sizes)
        others.remove(size)
        for mates in combinations(rest, size - 1):
            remaining = [i for i in rest if i not in mates]
            for tail in all_tablings(remaining, others):
                yield [(first, *mates), *tail]


def repeats(players: list[Competitor], tables) -> int:
    by_id = {c.id: c for c in players}
    return sum(b in by_id[a].opponents for t in tables for a, b in combinations(t, 2))


@settings(max_examples=200, deadline=None)
@given(table_fields())
def test_swiss_tables_seat_everyone_validly_with_as_few_repeated_table_mates_as_possible(field):
    size, players = field
    result = swiss_tables(players, size)
    sizes, bye_count = table_sizes(len(players), size)
    assert sorted(len(t) for t in result.tables) == sorted(sizes)
    assert len(result.byes) == bye_count
    seated = [p for t in result.tables for p in t] + list(result.byes)
    assert sorted(seated) == sorted(c.id for c in players)
    # Byes go to players without one while anyone lacks one.
    lacking = sum(c.byes == 0 for c in players)
    given_to_lacking = sum(c.byes == 0 for c in players if c.id in result.byes)
    assert given_to_lacking == min(lacking, bye_count)
    ids = sorted(c.id for c in players if c.id not in result.byes)
    best = min(repeats(players, t) for t in all_tablings(ids, sizes))
    assert repeats(players, result.tables) == best


def test_tables_group_players_of_near_standing():
    players = [Competitor(id=i, score=12 - i) for i in range(1, 9)]
    result = swiss_tables(players, 4)
    assert [sorted(t) for t in result.tables] == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_seven_players_at_tables_of_four_sit_four_and_three():
    players = [Competitor(id=i) for i in range(1, 8)]
    result = swiss_tables(players, 4)
    assert [len(t) for t in result.tables] == [4, 3]
    assert result.byes == ()


def test_arena_streak_doubles_after_two_wins_until_a_game_is_not_won():
    outcomes = ["win", "win", "win", "draw", "win", "win", "win", "loss", "win"]
    assert arena_points(outcomes) == [
        (2, False),
        (2, False),
        (4, True),
        (2, True),
        (2, False),
        (2, False),
        (4, True),
        (0, True),
        (2, False),
    ]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12), st.data())
def test_arena_pairs_near_players_and_avoids_an_immediate_rematch(count, data):
    ranked = list(range(1, count + 1))
    waiting_ids = data.draw(st.lists(st.sampled_from(ranked), unique=True, min_size=2))
    last = {pid: data.draw(st.sampled_from([None, *ranked])) for pid in waiting_ids}
    waiting = [ArenaWaiting(id=pid, last_opponent=last[pid]) for pid in waiting_ids]
    pairs = arena_pair(waiting, ranked)
    assert len(pairs) == len(waiting_ids) // 2
    seated = [p for pair in pairs for p in pair]
    assert len(set(seated)) == len(seated) and set(seated) <= set(waiting_ids)

    def rematches(candidate):
        return sum(last[a] == b or last[b] == a for a, b in candidate)

    best = min(
        rematches(p) for p, _ in all_rounds(sorted(waiting_ids)) if len(p) == len(waiting_ids) // 2
    )
    assert rematches(pairs) == best


def test_tied_places_share_the_points_they_span():
    assert place_points([1, 1, 3, 4], (3, 2, 1, 0)) == [2.5, 2.5, 1, 0]
    assert place_points([2, 1], (1, 0)) == [0, 1]
    assert place_points([1, 1], (1, 0)) == [0.5, 0.5]
    assert place_points([3, 1, 1], (2, 1, 0)) == [0, 1.5, 1.5]


def test_arena_holds_a_pair_who_just_met_while_others_will_be_free_soon():
    ann, bob = ArenaWaiting(id=1, last_opponent=2), ArenaWaiting(id=2, last_opponent=1)
    # Nobody else in the event, or nobody else at a board: they play again at once.
    assert arena_pair([ann, bob], [1, 2], others_busy=0, hold=30) == [(1, 2)]
    # Two others are playing: they wait for them rather than meet twice in a row...
    assert arena_pair([ann, bob], [1, 2, 3, 4], others_busy=2, hold=30) == []
    # ...but not for ever: once one of them has waited the hold, the rematch is on.
    waited = ArenaWaiting(id=2, last_opponent=1, waited=30)
    assert arena_pair([ann, waited], [1, 2, 3, 4], others_busy=2, hold=30) == [(1, 2)]


def test_arena_caps_the_games_of_a_pair_at_a_fair_share_plus_one():
    assert arena_pair_cap(0, 1) is None
    assert [arena_pair_cap(games, 3) for games in (0, 1, 2, 3, 5, 8)] == [2, 2, 2, 3, 3, 4]
    # Two fast players who have met in three of their four games wait, however long,
    # while the other two are at a board; the cap holds nobody back once nobody is.
    fast = [
        ArenaWaiting(id=1, last_opponent=3, games=4, met={2: 3, 3: 1}, waited=600),
        ArenaWaiting(id=2, last_opponent=4, games=4, met={1: 3, 4: 1}, waited=600),
    ]
    assert arena_pair(fast, [1, 2, 3, 4], others_busy=2, hold=30) == []
    assert arena_pair(fast, [1, 2], others_busy=0, hold=30) == [(1, 2)]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 10), st.integers(0, 4), st.data())
def test_arena_never_pairs_a_held_pair_while_others_are_at_a_board(count, busy, data):
    ranked = list(range(1, count + busy + 1))
    ids = ranked[:count]
    waiting = []
    for pid in ids:
        met = {o: data.draw(st.integers(0, 4)) for o in ranked if o != pid}
        waiting.append(
            ArenaWaiting(
                id=pid,
                last_opponent=data.draw(st.sampled_from([None, *ranked])),
                games=sum(met.values()),
                met=met,
                waited=data.draw(st.sampled_from([0.0, 5.0, 30.0])),
            )
        )
    pairs = arena_pair(waiting, ranked, others_busy=busy, hold=30.0)
    seated = [p for pair in pairs for p in pair]
    assert len(set(seated)) == len(seated) and set(seated) <= set(ids)
    by_id = {w.id: w for w in waiting}
    opponents = count + busy - 1
    for a, b in (tuple(by_id[p] for p in pair) for pair in pairs):
        if not busy:
            continue
        rematch = a.last_opponent == b.id or b.last_opponent == a.id
        assert not rematch or max(a.waited, b.waited) >= 30.0
        for one, other in ((a, b), (b, a)):
            assert one.met.get(other.id, 0) + 1 <= arena_pair_cap(one.games, opponents)
    if not busy:
        # Nobody else to wait for: everyone waiting plays (one sits out of an odd count).
        assert len(pairs) == count // 2
