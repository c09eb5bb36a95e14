"""Bots: legal moves at every level, views only, reproducible search, greedy's arithmetic, CLI."""

from __future__ import annotations

import json
import pickle
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
from engine.topiary import fastplay as topiary_fastplay
from engine.topiary.bots import expected_scores, expected_step_scores
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
def test_every_topiary_bot_decision_is_a_legal_step_and_a_take_is_planted_after_it(options, level):
    """As at the table: place or place-and-take first, then the plant on the pending view."""
    rng = Rng(f"{level}{options}")
    for state in topiary_positions(options, 14, seed=len(str(options)))[::2]:
        view = state.view(state.to_move)
        step = bots.choose_move(view, level, rng=rng, iterations=40)
        assert step in view.legal_steps()
        assert "=" not in step
        pending = state.apply(step)
        if pending.pending_step is not None:
            plant_view = pending.view(state.to_move)
            plant = bots.choose_move(plant_view, level, rng=rng, iterations=40)
            assert plant in plant_view.legal_moves()


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


def test_a_view_sent_to_a_fresh_process_chooses_the_same_move_there():
    # A thinking process (games.thinking) unpickles the view by its classes' module paths,
    # with nothing imported before; the bot there must decide as it would here.
    topiary_state = topiary.new_game(topiary.Options(players=3), 5)
    topiary_state = topiary_state.apply("c5:S c4")
    garden_state = wizards_garden.new_game(None, 3)
    views = [s.view(s.to_move) for s in (topiary_state, garden_state)]
    there = subprocess.run(
        [sys.executable, "-c", THINK_ELSEWHERE],
        input=pickle.dumps(views),
        capture_output=True,
        cwd=ROOT,
        timeout=300,
    )
    assert there.returncode == 0, there.stderr.decode()
    moves = json.loads(there.stdout)
    assert moves == [bots.choose_move(view, "greedy", rng=Rng("there")) for view in views]
    assert moves[0].startswith("=")  # the taker's plant: the pending take crossed intact


#: What a thinking process does with the views it is sent: unpickle, choose, print.
THINK_ELSEWHERE = """
import json, pickle, sys
views = pickle.loads(sys.stdin.buffer.read())
from engine.bots import choose_move
from engine.rng import Rng
print(json.dumps([choose_move(view, "greedy", rng=Rng("there")) for view in views]))
"""


@pytest.mark.parametrize("level", ["strong", "master"])
def test_the_searching_bots_with_an_iteration_cap_are_reproducible_from_every_seat(level):
    """The same seed and cap give the same step, and the same plant on the pending view."""
    for options in TOPIARY_TABLES[:3]:
        positions = topiary_positions(options, 12, seed=9)[4 : 4 + options["players"]]
        assert {state.to_move for state in positions} == set(range(options["players"]))
        for state in positions:
            view = state.view(state.to_move)
            steps = {bots.choose_move(view, level, rng=Rng(3), iterations=300) for _ in range(2)}
            assert len(steps) == 1 and steps <= set(view.legal_steps())
            take = next(s for s in view.legal_steps() if " " in s)
            pending = state.apply(take).view(state.to_move)
            plants = {bots.choose_move(pending, level, rng=Rng(3), iterations=200) for _ in "ab"}
            assert len(plants) == 1 and plants <= set(pending.legal_moves())


def test_the_strong_bot_with_an_iteration_cap_is_reproducible_in_wizards_garden():
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


def test_whole_move_expectations_average_every_tile_the_take_could_reveal():
    """``expected_scores``: the one-decision evaluation the daily puzzle generator keeps."""
    state = topiary_positions({"players": 2}, 7, seed=21)[-1]
    view = state.view(state.to_move)
    expected = expected_scores(view)
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


def test_greedy_takes_the_expectation_of_the_best_plant_given_the_tile():
    """Per take step: the average over the unseen tiles of the best plant knowing the tile
    (not the best of the averaged plants); greedy plays the best step."""
    state = topiary_positions({"players": 2}, 7, seed=21)[-1]
    view = state.view(state.to_move)
    expected = expected_step_scores(view)
    unseen = view.unseen_tiles()
    averaged_best_plant_differs = False
    for code in view.step_codes():
        step = topiary.move_name(code)
        p = topiary.POSITION_INDEX[step.split()[0]]
        visitors = list(view.visitors)
        visitors[p] = view.seat
        if " " not in step:
            score = _own_score(view.garden, visitors, view.hand, view.seat)
            assert expected[code] == score * len(unseen)
            continue
        cell = topiary.CELL_INDEX[step.split()[1]]
        per_plant: dict[int | None, int] = {}
        total = 0
        for tile in unseen:
            scores = {}
            for plant in [None, *view.hand]:
                garden, hand = list(view.garden), list(view.hand)
                garden[cell] = tile if plant is None else plant
                if plant is not None:
                    hand[hand.index(plant)] = tile
                scores[plant] = _own_score(garden, visitors, hand, view.seat)
                per_plant[plant] = per_plant.get(plant, 0) + scores[plant]
            total += max(scores.values())
        assert expected[code] == total
        averaged_best_plant_differs |= total != max(per_plant.values())
    assert averaged_best_plant_differs
    best = max(expected[code] for code in view.step_codes())
    step = bots.choose_move(view, "greedy", rng=Rng(1))
    assert expected[state.code_of(step)] == best


def test_greedy_plants_the_best_tile_once_it_has_seen_the_taken_one():
    state = topiary_positions({"players": 2}, 7, seed=21)[-1]
    for step in state.legal_steps()[1::17]:
        pending = state.apply(step)
        if pending.pending_step is None:
            continue
        view = pending.view(state.to_move)
        scores = {
            plant: _own_score(after.garden, after.visitors, after.hands[view.seat], view.seat)
            for plant in view.legal_moves()
            for after in [pending.apply(plant)]
        }
        plant = bots.choose_move(view, "greedy", rng=Rng(2))
        assert scores[plant] == max(scores.values())


def test_the_strong_bot_searches_the_plant_of_a_pending_take_reproducibly():
    state = topiary_positions({"players": 2}, 5, seed=9)[-1]
    step = next(s for s in state.legal_steps() if " " in s)
    view = state.apply(step).view(state.to_move)
    plants = {bots.choose_move(view, "strong", rng=Rng(3), iterations=200) for _ in range(2)}
    assert len(plants) == 1 and plants <= set(view.legal_moves())


@pytest.mark.parametrize("players", [2, 3])
def test_master_judges_each_searched_step_by_the_next_seats_answer(players, monkeypatch):
    """Each master iteration plays the next seat's answer to the step (a free position, its
    best take there) before the playout, for a step and for a pending take's plant alike;
    strong's iterations go straight to the playout."""
    monkeypatch.setattr(topiary_fastplay, "compiled", None)  # the reference table, watched
    answers = []
    play_best_at = topiary_fastplay.Table.play_best_at

    def watched(table, position):
        answers.append((table.to_move, table.visitors[position]))
        play_best_at(table, position)

    monkeypatch.setattr(topiary_fastplay.Table, "play_best_at", watched)
    state = topiary_positions({"players": players}, 9, seed=21)[-1]
    view = state.view(state.to_move)
    answering = (state.to_move + 1) % players
    bots.choose_move(view, "strong", rng=Rng(2), iterations=120)
    assert answers == []
    bots.choose_move(view, "master", rng=Rng(2), iterations=120)
    assert answers == [(answering, -1)] * 120
    take = next(s for s in state.legal_steps() if " " in s)
    answers.clear()
    bots.choose_move(state.apply(take).view(state.to_move), "master", rng=Rng(2), iterations=50)
    assert answers == [(answering, -1)] * 50


def test_determinizations_of_a_pending_take_keep_the_hand_of_four_and_the_gap():
    state = topiary_positions({"players": 3}, 4, seed=6)[-1]
    step = next(s for s in state.legal_steps() if " " in s)
    pending = state.apply(step)
    seat = state.to_move
    _, cell, took = pending.pending
    for deal_seed in range(5):
        table = fastplay.Dealer(pending.view(seat)).deal(random.Random(deal_seed))
        assert table.hands[seat] == list(pending.hands[seat])
        assert table.garden[cell] == topiary.GAP
        tiles = [t % 40 for t in table.garden if t != topiary.GAP]
        tiles += [t for hand in table.hands for t in hand] + table.box
        assert sorted(tiles) == sorted(state.options.game_tiles(state.removed_type))
    whole = fastplay.Table(pending)
    whole.plant(cell, took)
    after = pending.apply("=*")
    assert whole.garden == list(after.garden) and whole.to_move == after.to_move
    assert [sorted(h) for h in whole.hands] == [list(h) for h in after.hands]
    with pytest.raises(ValueError, match="taker"):
        fastplay.Dealer(pending.view((seat + 1) % 3))


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
    takes = [i for i, move in enumerate(first.moves) if move.count(" ") == 1]
    assert takes and all(first.moves[i + 1].startswith("=") for i in takes)
    assert all(first.movers[i] == first.movers[i + 1] for i in takes)
    record = first.record(topiary)
    assert len(record["moves"]) == len(first.moves) - len(takes)
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
