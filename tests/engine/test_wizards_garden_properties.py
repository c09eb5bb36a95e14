"""Wizards' Garden over many random games: what must hold in every position."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import wizards_garden as wg

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "setup_apart": st.booleans(),
        "first_player": st.sampled_from([None, 0, 1]),
        "picks": st.lists(st.integers(0, 2**16), min_size=250, max_size=250),
    }
)


def play(game: dict) -> tuple[list[wg.State], list[str]]:
    """Every state and move of a game whose moves are picked from the legal ones."""
    options = wg.Options(setup_apart=game["setup_apart"])
    state = wg.new_game(options, seed=game["seed"], first_player=game["first_player"])
    states, moves = [state], []
    for pick in game["picks"]:
        if state.is_over:
            break
        legal = state.legal_moves()
        moves.append(legal[pick % len(legal)])
        state = state.apply(moves[-1])
        states.append(state)
    assert state.is_over, "a game ends: each harvest keeps a seed out of the basket for good"
    return states, moves


def seeds_on_board(state: wg.State) -> int:
    return sum(cell != "." for row in state.to_json()["board"] for cell in row)


@settings(max_examples=60, deadline=None)
@given(games)
def test_every_position_keeps_the_rules_invariants(game):
    states, _ = play(game)
    for state in states:
        flowers = sum(entry["flowers"] for entry in state.score()["scores"])
        assert seeds_on_board(state) + state.basket + flowers == 20
        assert wg.state_from_json(state.to_json()) == state
        if state.staff is not None:
            assert state.harvested[state.staff][1] > 0
        assert state.is_over == (state.legal_moves() == [])
        assert state.is_over == (state.end_reason() is not None)


@settings(max_examples=60, deadline=None)
@given(games)
def test_setup_takes_four_placements_then_play_runs_to_the_end(game):
    states, _ = play(game)
    assert [s.phase for s in states[:5]] == ["setup"] * 4 + ["play"]
    assert all(s.phase == "play" for s in states[4:-1])
    assert states[-1].phase == "over"
    assert seeds_on_board(states[4]) == 4
    assert states[4].to_move == states[0].to_move
    assert all(after.to_move != before.to_move for before, after in pairwise(states))
    if game["setup_apart"]:
        setup_board = states[4].occupied
        assert all(not wg.NEIGHBOURS[i] & setup_board for i in range(16) if setup_board >> i & 1)


@settings(max_examples=30, deadline=None)
@given(games)
def test_every_legal_move_applies_and_codes_agree(game):
    states, _ = play(game)
    for state in states[::3]:
        moves = state.legal_moves()
        assert moves == sorted(set(moves))
        assert sorted(wg.move_name(code) for code in state.move_codes()) == moves
        for move in moves:
            after = state.apply(move)
            assert after == state.apply_code(state.code_of(move))
            assert state.canonical(move) == move


@settings(max_examples=30, deadline=None)
@given(games)
def test_records_always_replay(game):
    states, moves = play(game)
    record = wg.make_record(states[0], moves, seed=game["seed"], names=["ada", "bo"])
    assert wg.replay(record) == states
