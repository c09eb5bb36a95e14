"""Wizards' Garden's compiled search against the reference (``bots.Search`` on ``State``).

Thousands of seeded positions go through both: the same legal moves in the same order, the
same position after each, the same values and node counts at every depth, and the strong
bot and the analysis choose the same either way.
"""

from __future__ import annotations

import math

import pytest

from engine import analysis, bots, wizards_garden
from engine.rng import Rng
from engine.wizards_garden import analysis as garden_analysis
from engine.wizards_garden import bots as garden_bots

compiled = garden_bots.compiled


def positions_along_random_games(games: int, seed: int, **options) -> list:
    """Every position of ``games`` random games, the last (over) included."""
    rng = Rng(seed)
    out = []
    for game in range(games):
        state = wizards_garden.new_game(wizards_garden.Options(**options), seed=seed * 1000 + game)
        while not state.is_over:
            out.append(state)
            state = state.apply_code(rng.choice(list(state.move_codes())))
        out.append(state)
    return out


@pytest.fixture(scope="module")
def positions() -> list:
    return positions_along_random_games(60, 1) + positions_along_random_games(
        20, 2, setup_apart=True
    )


def test_the_compiled_search_is_built():
    # `make venv` builds it; CI runs these tests against it, not the fallback.
    assert compiled is not None


def test_the_same_moves_and_the_same_positions_after_them(positions):
    assert len(positions) > 2000
    for state in positions:
        assert compiled.move_codes(state) == state.move_codes()
        for code in state.move_codes():
            after = state.apply_code(code)
            assert compiled.after(state, code) == (
                after.white,
                after.black,
                after.basket,
                after.harvested,
                after.staff,
                after.to_move,
                after.phase,
            )


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_same_values_and_node_counts_at_every_depth(positions, depth):
    for state in positions[:: 2 * depth**2]:
        for code in state.move_codes():
            reference = garden_bots.Search(math.inf, None)
            fast = compiled.Search(math.inf, None, garden_bots._OutOfTime)
            window = (-math.inf, math.inf) if code % 2 else (-1.0, 1.5)
            expected = reference.child_value(state, code, depth, *window)
            assert fast.child_value(state, code, depth, *window) == expected
            assert (fast.nodes, fast.cut_off) == (reference.nodes, reference.cut_off)
        if not state.is_over:
            reference = garden_bots.Search(math.inf, None)
            fast = compiled.Search(math.inf, None, garden_bots._OutOfTime)
            expected = reference.negamax(state, depth, -math.inf, math.inf)
            assert fast.negamax(state, depth, -math.inf, math.inf) == expected
            assert fast.nodes == reference.nodes


def test_a_node_cap_stops_both_at_the_same_node(positions, monkeypatch):
    views = [s.view(s.to_move) for s in positions[::40] if not s.is_over]
    fast = [bots.choose_move(v, "strong", rng=Rng(i), iterations=700) for i, v in enumerate(views)]
    monkeypatch.setattr(garden_bots, "compiled", None)
    assert [
        bots.choose_move(v, "strong", rng=Rng(i), iterations=700) for i, v in enumerate(views)
    ] == fast


def test_the_analysis_is_the_same_either_way(monkeypatch):
    monkeypatch.setattr(garden_analysis, "GARDEN_DEPTH", 3)
    record = bots.play_game(wizards_garden, ["greedy", "random"], seed=3).record(wizards_garden)
    fast = analysis.analyse_record(record, seed="g")
    monkeypatch.setattr(garden_bots, "compiled", None)
    assert analysis.analyse_record(record, seed="g") == fast
