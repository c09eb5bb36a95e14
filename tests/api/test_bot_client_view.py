"""The reference bot (examples/bot_client.py) rebuilds its engine view from a game frame's
``position`` (the seat's own view, hidden tiles as ``?``): the rebuilt view must be the one
the server built, or the bot would play from a different position than it was shown."""

from __future__ import annotations

import random

import pytest

from engine import topiary, wizards_garden
from engine.bots import choose_move
from engine.games import view_from_json
from engine.rng import Rng


def random_positions(start, count: int, seed: int):
    """``count`` positions on one random walk from ``start``, each with its mover to play."""
    rnd = random.Random(seed)
    state = start
    for _ in range(count):
        if state.is_over:
            return
        yield state
        state = state.apply(rnd.choice(state.legal_steps()))


def walks():
    for players in (2, 3):
        for draft in (False, True):
            options = topiary.Options(players=players, draft=draft)
            for seed in range(3):
                yield "topiary", topiary.new_game(options, seed), seed
    for seed in range(3):
        yield "wizards_garden", wizards_garden.new_game(seed=seed), seed


def test_the_view_rebuilt_from_a_frame_position_is_the_servers_view():
    seen_phases, pending_takes, checked = set(), 0, 0
    for kind, start, seed in walks():
        for state in random_positions(start, 60, seed):
            seat = state.to_move
            view = state.view(seat)
            position = view.to_json()  # what games.selectors puts in the frame
            rebuilt = view_from_json(kind, position, seat)
            assert rebuilt.to_json() == position
            assert rebuilt.legal_steps() == view.legal_steps()
            seen_phases.add((kind, state.phase))
            pending_takes += kind == "topiary" and view.pending_step is not None
            checked += 1
    assert {("topiary", "draft"), ("topiary", "play"), ("wizards_garden", "play")} <= seen_phases
    assert pending_takes > 0
    assert checked > 100


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_every_level_picks_a_step_the_server_offers_from_the_rebuilt_view(level):
    for kind, start, seed in walks():
        for state in random_positions(start, 25, seed):
            view = state.view(state.to_move)
            rebuilt = view_from_json(kind, view.to_json(), state.to_move)
            step = choose_move(rebuilt, level, rng=Rng(seed))
            assert step in view.legal_steps()
