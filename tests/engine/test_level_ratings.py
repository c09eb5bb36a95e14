"""The levels' ratings: bench/levels.py's maximum-likelihood Elo fit recovers known ratings
from results drawn with them, and the site takes each level's start from one table."""

from __future__ import annotations

import random

import pytest

from bench.levels import fit
from engine import bots
from engine.games import game_definition

TRUE = {"random": 1000.0, "greedy": 1500.0, "strong": 1750.0, "master": 1850.0}


def expected(a: str, b: str) -> float:
    return 1 / (1 + 10 ** ((TRUE[b] - TRUE[a]) / 400))


def drawn_results(games: int, seed: int) -> dict:
    """Every pair plays ``games`` games, each won with the Elo probability of TRUE."""
    rand = random.Random(seed)
    results = {}
    names = list(TRUE)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            a_wins = sum(rand.random() < expected(a, b) for _ in range(games))
            results[a, b] = (a_wins, games - a_wins)
    return results


def test_the_fit_recovers_the_ratings_the_results_were_drawn_with():
    fitted = fit(drawn_results(4000, seed=1))
    assert fitted["greedy"] == (1500.0, 0.0)  # the anchor
    for name in ("strong", "master"):
        rating, half_width = fitted[name]
        assert abs(rating - TRUE[name]) <= half_width < 25
    # Random almost never wins against the searching levels: its rating rests on the
    # greedy pair and the virtual draws, and its interval says so.
    rating, half_width = fitted["random"]
    assert abs(rating - TRUE["random"]) <= half_width
    assert half_width > fitted["strong"][1]


def test_fewer_games_give_wider_intervals_around_the_same_order():
    few, many = fit(drawn_results(60, seed=2)), fit(drawn_results(2000, seed=2))
    assert sorted(few, key=lambda n: few[n][0]) == ["random", "greedy", "strong", "master"]
    for name in ("random", "strong", "master"):
        assert few[name][1] > 2 * many[name][1]


def test_exact_expected_results_are_fitted_exactly_but_for_the_virtual_draws():
    # Without noise the maximum of the likelihood is the truth, pulled a little towards
    # the middle by the one virtual draw per pair.
    games = 100_000
    results = {
        (a, b): (games * expected(a, b), games * (1 - expected(a, b)))
        for a, b in [("greedy", "strong"), ("strong", "master"), ("greedy", "master")]
    }
    fitted = fit(results)
    assert fitted["strong"][0] == pytest.approx(TRUE["strong"], abs=0.5)
    assert fitted["master"][0] == pytest.approx(TRUE["master"], abs=0.5)


def test_a_fit_without_the_anchor_is_refused():
    with pytest.raises(ValueError, match="greedy"):
        fit({("strong", "master"): (10, 30)})


def test_every_house_level_has_a_measured_topiary_strength_in_one_table():
    measured = game_definition("topiary").bot_ratings
    assert set(measured) == set(bots.LEVELS)
    assert measured["greedy"] == 1500
    # Master is the strong search with more time: measured level with strong, not below it
    # by more than the fit's error (docs/BENCHMARKS.md, "Levels").
    assert measured["random"] < measured["greedy"] < min(measured["strong"], measured["master"])
    assert bots.measured_ratings("master")["topiary"] == measured["master"]


def test_every_house_level_has_a_measured_wizards_garden_strength():
    measured = game_definition("wizards_garden").bot_ratings
    assert set(measured) == set(bots.LEVELS)
    assert measured["greedy"] == 1500
    # Wizards' Garden's master is its strong search with five times the nodes: measured
    # level with strong or above it (docs/BENCHMARKS.md, "Levels").
    assert measured["random"] < measured["greedy"] < measured["strong"] <= measured["master"]
    assert bots.measured_ratings("strong") == {
        "topiary": game_definition("topiary").bot_ratings["strong"],
        "wizards_garden": measured["strong"],
    }
