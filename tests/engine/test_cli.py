"""``python -m engine topiary ...`` and the CLI framework, run in a subprocess as a user runs it."""

from __future__ import annotations

import json

import pytest

from engine import topiary as t
from engine.rng import Rng
from tests.engine import EXAMPLES, load_example
from tests.engine.cli import engine, ok, refused


@pytest.mark.parametrize("name", ["topiary_finished_2p.json", "topiary_finished_4p.json"])
def test_score_of_the_example_files(name):
    example = load_example(name)
    assert ok(engine("topiary", "score", str(EXAMPLES / name))) == example["score"]


def test_moves_of_the_example_file_from_stdin():
    example = load_example("topiary_moves_3p.json")
    position = json.dumps(example["position"])
    assert ok(engine("topiary", "moves", stdin=position)) == sorted(example["moves"])
    assert ok(engine("topiary", "moves", "-", stdin=position)) == sorted(example["moves"])


def test_apply_prints_the_full_position_after_the_move(tmp_path):
    start = t.new_game(t.Options(players=2), seed=3)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(start.to_json()))
    move = start.legal_moves()[5]
    after = ok(engine("topiary", "apply", move, str(path)))
    assert t.state_from_json(after) == start.apply(move)


def test_replay_checks_a_record_and_prints_the_end(tmp_path):
    rng = Rng(4)
    state = initial = t.new_game(t.Options(players=2), seed=4)
    moves = []
    while not state.is_over:
        moves.append(rng.choice(state.legal_moves()))
        state = state.apply(moves[-1])
    record = t.make_record(initial, moves, seed=4, names=["ann", "bob"])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = ok(engine("topiary", "replay", str(path)))
    assert t.state_from_json(out["position"]) == state
    assert out["scores"] == state.score()["scores"] and out["winners"] == state.score()["winners"]
    record["moves"][3] = "b3:E"
    path.write_text(json.dumps(record))
    assert "ply 4" in refused(engine("topiary", "replay", str(path)))


def test_perft_from_the_default_deal_and_from_a_file(tmp_path):
    start = t.new_game(t.Options(players=2), seed=1)
    out = ok(engine("topiary", "perft", "1"))
    assert (out["depth"], out["nodes"]) == (1, len(start.legal_moves()))
    later = start.apply(start.legal_moves()[0])
    path = tmp_path / "later.json"
    path.write_text(json.dumps(later.to_json()))
    two = sum(len(later.apply(m).legal_moves()) for m in later.legal_moves())
    assert ok(engine("topiary", "perft", "2", str(path)))["nodes"] == two


def test_wizards_garden_goes_through_the_same_commands():
    path = EXAMPLES / "wizards_garden_moves.json"
    example = load_example("wizards_garden_moves.json")
    assert sorted(ok(engine("wizards-garden", "moves", str(path)))) == sorted(example["moves"])


@pytest.mark.parametrize(
    ("args", "stdin", "reason"),
    [
        (("topiary", "score", "/no/such/file.json"), None, "cannot read /no/such/file.json"),
        (("topiary", "score"), "{", "stdin: invalid JSON at line 1"),
        (("topiary", "score"), '{"game": "topiary"}', "missing field 'garden'"),
        (("topiary", "moves"), '{"game": "wizards_garden"}', "expected 'topiary'"),
        (("chess", "moves"), "{}", "unknown game 'chess'"),
        (("topiary", "solve-it"), "{}", "unknown command 'solve-it'"),
        (("topiary",), None, "expected a game and a command"),
        (("topiary", "apply"), None, "apply needs MOVE"),
        (("topiary", "perft", "two"), None, "'two' is not a whole number"),
        (("topiary", "perft", "-1"), None, "negative"),
        (("wizards-garden", "perft", "1"), None, "perft is not available"),
        (("topiary", "score", "a.json", "b.json"), None, "unexpected argument 'b.json'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, reason):
    assert reason in refused(engine(*args, stdin=stdin))


def test_a_malformed_position_names_the_cell():
    data = load_example("topiary_finished_2p.json")["position"]
    data["garden"][0][1] = "Z7"
    line = refused(engine("topiary", "score", stdin=json.dumps(data)))
    assert "garden b5" in line and "Z7" in line


def test_an_illegal_move_names_the_move_and_the_reason():
    data = load_example("topiary_moves_3p.json")["position"]
    line = refused(engine("topiary", "apply", "a3:E", stdin=json.dumps(data)))
    assert "'a3:E'" in line and "occupied" in line
    line = refused(engine("topiary", "apply", "a1:E b1=N2", stdin=json.dumps(data)))
    assert "N2 is not in your hand" in line


def test_help_lists_the_commands():
    result = engine("--help")
    assert result.returncode == 0
    for name in ("score", "moves", "apply MOVE", "replay", "perft DEPTH"):
        assert name in result.stdout


def as_seen_by(position: dict, seat: int) -> dict:
    """The position as NOTATION.md writes a player's view: face-down cells and others' hands ?."""
    shown = dict(position)
    shown["garden"] = [[c if c[0].isupper() else "?" for c in row] for row in position["garden"]]
    shown["hands"] = [h if s == seat else ["?"] * 3 for s, h in enumerate(position["hands"])]
    return shown


def test_moves_from_the_movers_view_are_the_moves_of_the_full_position():
    example = load_example("topiary_moves_3p.json")
    view = as_seen_by(example["position"], example["position"]["to_move"])
    assert ok(engine("topiary", "moves", stdin=json.dumps(view))) == sorted(example["moves"])


def test_score_needs_every_hand_but_not_the_face_down_identities():
    example = load_example("topiary_finished_2p.json")
    position = example["position"]
    every_hand_known = dict(as_seen_by(position, 0), hands=position["hands"])
    assert ok(engine("topiary", "score", stdin=json.dumps(every_hand_known))) == example["score"]
    line = refused(engine("topiary", "score", stdin=json.dumps(as_seen_by(position, 0))))
    assert line == "error: hands[1]: unknown ('?'), but every hand is needed"


def test_moves_refuses_a_view_that_hides_the_movers_hand():
    position = load_example("topiary_moves_3p.json")["position"]
    line = refused(engine("topiary", "moves", stdin=json.dumps(as_seen_by(position, 0))))
    assert line == "error: hands[1]: unknown ('?'), but the mover's hand is needed"


def test_a_take_in_two_steps_on_the_command_line():
    """``apply "c5:S c4"`` prints the pending position; ``moves`` offers the plants; ``=`` ends."""
    start = t.new_game(t.Options(players=2), seed=3)
    take = next(step for step in start.legal_steps() if " " in step)
    pending = ok(engine("topiary", "apply", take, stdin=json.dumps(start.to_json())))
    took = start.took(take)
    position, cell = take.split()
    assert pending["pending"] == {"position": position, "cell": cell, "took": took}
    assert len(pending["hands"][start.to_move]) == 4
    plants = ok(engine("topiary", "moves", stdin=json.dumps(pending)))
    assert plants[0] == "=*" and len(plants) == 4 and f"={took}" not in plants
    seen = {k: v for k, v in start.apply(take).view(start.to_move).to_json().items() if k != "seat"}
    assert ok(engine("topiary", "moves", stdin=json.dumps(seen))) == plants
    finished = ok(engine("topiary", "apply", plants[1], stdin=json.dumps(pending)))
    assert t.state_from_json(finished) == start.apply(t.join_steps(take, plants[1], took))
    line = refused(engine("topiary", "apply", take, stdin=json.dumps(pending)))
    assert "plant a tile from your hand" in line
