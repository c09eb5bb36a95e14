"""``python -m engine wizards-garden ...`` run as a user runs it, in a subprocess."""

from __future__ import annotations

import json
import subprocess

import pytest

from engine import wizards_garden as wg
from engine.rng import Rng
from tests.engine import EXAMPLES, load_example
from tests.engine.cli import engine as run_engine
from tests.engine.cli import ok, refused


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return run_engine("wizards-garden", *args, stdin=stdin)


EXAMPLE = EXAMPLES / "wizards_garden_moves.json"


@pytest.fixture
def example() -> dict:
    return load_example("wizards_garden_moves.json")


def test_moves_of_the_example_file(example):
    assert sorted(ok(engine("moves", str(EXAMPLE)))) == sorted(example["moves"])


def test_moves_of_a_position_on_stdin(example):
    moves = ok(engine("moves", "-", stdin=json.dumps(example["position"])))
    assert moves == sorted(example["moves"])
    assert ok(engine("moves", stdin=json.dumps(example["position"]))) == moves


def test_score_applies_the_staff_tie_break(example):
    assert ok(engine("score", str(EXAMPLE))) == {
        "scores": [
            {"seat": 0, "W": 1, "B": 1, "flowers": 2, "staff": False, "total": 2},
            {"seat": 1, "W": 1, "B": 2, "flowers": 3, "staff": True, "total": 3},
        ],
        "winners": [1],
    }
    level = {**example["position"], "harvested": [{"W": 2, "B": 1}, {"W": 1, "B": 2}]}
    level["basket"] = 2
    assert ok(engine("score", stdin=json.dumps(level)))["winners"] == [1]


def test_apply_harvests_the_named_line_and_passes_the_staff(example):
    after = ok(engine("apply", "c2B/c1-c4", stdin=json.dumps(example["position"])))
    assert after["board"] == [
        [".", "W", ".", "B"],
        ["W", "B", ".", "B"],
        ["W", "B", ".", "."],
        ["B", "B", ".", "."],
    ]
    assert after["harvested"] == [{"W": 1, "B": 2}, {"W": 1, "B": 2}]
    assert (after["basket"], after["staff"], after["to_move"], after["phase"]) == (5, 0, 1, "play")
    again = ok(engine("apply", "a4W", stdin=json.dumps(after)))
    assert again["to_move"] == 0


def test_apply_refuses_a_harvest_left_unnamed(example):
    message = refused(engine("apply", "c2B", stdin=json.dumps(example["position"])))
    assert "c2B/a1-d4" in message and "c2B/c1-c4" in message


def test_apply_refuses_a_seed_away_from_the_others():
    start = wg.new_game(wg.Options(), seed=3, first_player=0)
    for move in ["a1W", "a2B", "b1B", "b2W"]:
        start = start.apply(move)
    message = refused(engine("apply", "d4W", stdin=json.dumps(start.to_json())))
    assert "d4 is not next to a seed" in message


def test_a_bad_cell_in_a_position_is_named(example):
    broken = json.loads(json.dumps(example["position"]))
    broken["board"][2][2] = "X"
    assert "board cell c2" in refused(engine("moves", stdin=json.dumps(broken)))
    assert "invalid JSON" in refused(engine("score", stdin="{"))


def recorded_game(seed: int) -> dict:
    rng = Rng(seed)
    start = state = wg.new_game(wg.Options(), seed=seed)
    moves = []
    while not state.is_over:
        moves.append(rng.choice(state.legal_moves()))
        state = state.apply(moves[-1])
    return wg.make_record(start, moves, seed=seed, names=["ada", "bo"])


def test_replay_prints_the_final_position_and_scores(tmp_path):
    record = recorded_game(21)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    printed = ok(engine("replay", str(path)))
    final = wg.replay(record)[-1]
    assert printed["position"] == final.to_json()
    assert printed["position"]["phase"] == "over"
    assert printed["scores"] == record["scores"]
    assert printed["winners"] == record["winners"]


def test_replay_names_the_ply_of_a_bad_move():
    record = recorded_game(22)
    record["moves"][5] = record["moves"][1]
    assert "ply 6" in refused(engine("replay", stdin=json.dumps(record)))
