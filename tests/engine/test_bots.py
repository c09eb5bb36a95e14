"""Bots: legal moves at every level, views only, reproducible search, greedy's arithmetic, CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import bots, fastplay, topiary, wizards_garden
from engine.errors import IllegalMove
from engine.fastplay import hand_points, line_points
from engine.rng import Rng
from engine.topiary import LINES
from tests.engine import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]

TOPIARY_TABLES = [
    {"players": 2},
    {"players": 3, "must_pick": True},
    {"players": 4, "corner_diagonals": False},
    {"players": 3, "draft": True},
]


def topiary_positions(options: dict, count: int, seed: int):
    """Positions along a random game (draft moves included), every one with its mover."""
    rng = Rng(seed)
    state = topiary.new_game(topiary.Options(**options), seed)
    out = []
    while not state.is_over and len(out) < count:
        out.append(state)
        state = state.apply_code(rng.choice(state.move_codes()))
    return out


@pytest.mark.parametrize("options", TOPIARY_TABLES)
@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_topiary_bot_move_is_legal(options, level):
    rng = Rng(f"{level}{options}")
    for state in topiary_positions(options, 14, seed=len(str(options)))[::2]:
        view = state.view(state.to_move)
        move = bots.choose_move(view, level, rng=rng, iterations=40)
        assert move in view.legal_moves()


@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_wizards_garden_bot_move_is_legal_through_a_whole_game(level):
    rng = Rng(level)
    state = wizards_garden.new_game(wizards_garden.Options(), 4)
    while not state.is_over:
        view = state.view(state.to_move)
        move = bots.choose_move(view, level, rng=rng, iterations=300)
        assert move in view.legal_moves()
        state = state.apply(move)


def test_bots_refuse_a_full_state_and_a_view_not_to_move():
    state = topiary.new_game(topiary.Options(), 2)
    with pytest.raises(TypeError, match="view"):
        bots.choose_move(state, "greedy", rng=Rng(1))
    with pytest.raises(TypeError, match="view"):
        bots.choose_move(wizards_garden.new_game(None, 1), "strong", rng=Rng(1))
    with pytest.raises(IllegalMove, match="not to move"):
        bots.choose_move(state.view(1 - state.to_move), "random", rng=Rng(1))
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose_move(state.view(state.to_move), "expert", rng=Rng(1))


def test_the_strong_bot_with_an_iteration_cap_is_reproducible():
    state = topiary_positions({"players": 2}, 5, seed=9)[-1]
    view = state.view(state.to_move)
    moves = {bots.choose_move(view, "strong", rng=Rng(3), iterations=300) for _ in range(2)}
    assert len(moves) == 1
    garden = wizards_garden.new_game(None, 2)
    for _ in range(6):
        garden = garden.apply(garden.legal_moves()[3])
    gview = garden.view(garden.to_move)
    assert (
        len({bots.choose_move(gview, "strong", rng=Rng(3), iterations=500) for _ in range(2)}) == 1
    )


def _own_score(garden, visitors, hand, seat) -> int:
    points = seen = 0
    for p, s in enumerate(visitors):
        if s == seat:
            pts, mask = line_points(garden, LINES[p])
            points += pts
            seen |= mask
    return points + hand_points(hand, seen)


def test_greedy_expects_the_average_over_every_tile_the_take_could_reveal():
    state = topiary_positions({"players": 2}, 7, seed=21)[-1]
    view = state.view(state.to_move)
    expected = bots.expected_scores(view)
    unseen = view.unseen_tiles()
    for code in view.move_codes():
        p, cell, plant = topiary.decode_move(code)
        total = 0
        for tile in unseen if cell is not None else [None]:
            garden, hand, visitors = list(view.garden), list(view.hand), list(view.visitors)
            if cell is not None and plant is None:
                garden[cell] = tile
            elif cell is not None:
                garden[cell] = plant
                hand[hand.index(plant)] = tile
            visitors[p] = view.seat
            total += _own_score(garden, visitors, hand, view.seat)
        assert expected[code] == (total if cell is not None else total * len(unseen))
    best = max(expected.values())
    move = bots.choose_move(view, "greedy", rng=Rng(1))
    assert expected[state.code_of(move)] == best


def test_greedy_harvests_in_wizards_garden_when_it_can():
    position = json.loads((EXAMPLES / "wizards_garden_moves.json").read_text())["position"]
    state = wizards_garden.state_from_json(position)
    move = bots.choose_move(state.view(state.to_move), "greedy", rng=Rng(1))
    after = state.apply(move)
    assert sum(after.harvested[state.to_move]) == sum(state.harvested[state.to_move]) + 1


def test_determinizations_keep_what_the_view_knows_and_deal_the_rest():
    for options in TOPIARY_TABLES:
        for state in topiary_positions(options, 13, seed=5)[1::3]:
            if state.phase != "play":
                continue
            seat = state.to_move
            view = state.view(seat)
            table = fastplay.Dealer(view).deal(random.Random(seat))
            game_tiles = sorted(state.options.game_tiles(state.removed_type))
            dealt = [t % topiary.FACE_DOWN for t in table.garden]
            dealt += [t for hand in table.hands for t in hand] + table.box
            assert sorted(dealt) == game_tiles
            assert table.hands[seat] == list(view.hand)
            for cell, known in enumerate(view.garden):
                if known < topiary.FACE_DOWN:
                    assert table.garden[cell] == known
                else:
                    assert table.garden[cell] >= topiary.FACE_DOWN
            if view.passed_on is not None and view.passed_on[seat]:
                face_down = {t - topiary.FACE_DOWN for t in table.garden if t >= 40}
                assert not face_down & set(view.passed_on[seat])


def test_fast_scoring_and_playouts_agree_with_the_rules():
    rng = Rng(8)
    for players in (2, 3, 4):
        state = topiary.new_game(topiary.Options(players=players), players)
        while not state.is_over:
            state = state.apply_code(rng.choice(state.move_codes()))
        total, hand = fastplay.Table(state).totals()
        score = state.score()
        assert total == [s["total"] for s in score["scores"]]
        assert hand == [s["hand"] for s in score["scores"]]
        table = fastplay.Table(topiary.new_game(topiary.Options(players=players), players))
        fastplay.playout(table, random.Random(players).random)
        quota = topiary.Options(players=players).visitors_each
        assert [table.visitors.count(s) for s in range(players)] == [quota] * players
        tiles = [t % 40 for t in table.garden] + [t for h in table.hands for t in h] + table.box
        assert sorted(tiles) == sorted(state.options.game_tiles(state.removed_type))


def test_a_table_plays_move_codes_as_the_rules_do():
    rng = Rng(12)
    state = topiary.new_game(topiary.Options(players=3, must_pick=True), 12)
    table = fastplay.Table(state)
    while not state.is_over:
        code = rng.choice(state.move_codes())
        table.play(code)
        state = state.apply_code(code)
        assert table.garden == list(state.garden)
        assert table.visitors == list(state.visitors)
        assert [sorted(h) for h in table.hands] == [list(h) for h in state.hands]
        assert table.to_move == (-1 if state.is_over else state.to_move)


def test_a_bot_game_is_reproducible_from_its_seed_and_its_record_replays():
    first = bots.play_game(topiary, ["strong", "greedy"], seed=5, iterations=50)
    second = bots.play_game(topiary, ["strong", "greedy"], seed=5, iterations=50)
    assert first.moves == second.moves
    record = first.record(topiary)
    assert topiary.replay(record)[-1] == first.final
    assert record["players"] == ["strong bot", "greedy bot"]


def engine(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("game", "module"), [("topiary", topiary), ("wizards-garden", wizards_garden)]
)
def test_cli_play_prints_a_record_that_replays(game, module):
    result = engine(game, "play", "--bots", "strong,greedy", "--seed", "5", "--budget", "0.05")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["seed"] == 5
    assert record["players"] == ["strong bot", "greedy bot"]
    final = module.replay(record)[-1]
    assert final.is_over
    assert record["winners"] == final.score()["winners"]


def test_cli_play_refuses_unknown_levels_and_bad_flags():
    result = engine("topiary", "play", "--bots", "strong,wizard")
    assert result.returncode == 2
    assert "unknown bot level 'wizard'" in result.stderr
    result = engine("topiary", "play", "--bots", "strong,greedy", "--budget", "soon")
    assert result.returncode == 2
    assert "--budget" in result.stderr
    result = engine("wizards-garden", "play", "--bots", "strong,greedy,random")
    assert result.returncode == 2
    assert "2 players" in result.stderr
