"""Game records (engine.records through engine.topiary): what they hold, what replay refuses."""

from __future__ import annotations

import copy
import json

import pytest

from engine import topiary as t
from engine.errors import IllegalMove, RecordError
from engine.rng import Rng

NAMES = ["ann", "bob", "cy"]


def finished_game(seed: int = 21, **options) -> tuple[t.State, list[str], list[t.State]]:
    rng = Rng(seed)
    initial = t.new_game(t.Options(players=3, **options), seed)
    states, moves = [initial], []
    while not states[-1].is_over:
        moves.append(rng.choice(states[-1].legal_moves()))
        states.append(states[-1].apply(moves[-1]))
    return initial, moves, states


@pytest.fixture(scope="module")
def game():
    return finished_game()


@pytest.fixture
def record(game):
    initial, moves, _ = game
    return json.loads(json.dumps(t.make_record(initial, moves, seed=21, names=NAMES)))


def first_take(record) -> int:
    return next(i for i, m in enumerate(record["moves"]) if isinstance(m, dict))


def first_place_only(record) -> int:
    return next(i for i, m in enumerate(record["moves"]) if isinstance(m, str))


def test_record_holds_the_deal_every_move_and_the_scores(game, record):
    initial, moves, states = game
    assert record["game"] == "topiary" and record["seed"] == 21 and record["players"] == NAMES
    assert record["options"] == initial.options.to_json()
    assert record["first_player"] == initial.first_player
    deal = record["initial"]
    assert (
        deal["garden"] == initial.to_json()["garden"]
        and deal["hands"] == initial.to_json()["hands"]
    )
    assert deal["box"] and deal["removed_type"] in t.TYPES
    played = [m if isinstance(m, str) else m["move"] for m in record["moves"]]
    assert played == moves
    for before, entry in zip(states, record["moves"], strict=False):
        if isinstance(entry, dict):
            assert entry["took"] == before.took(entry["move"]) is not None
        else:
            assert before.took(entry) is None
    final = states[-1].score()
    assert (record["scores"], record["winners"]) == (final["scores"], final["winners"])


def test_replay_gives_every_state(game, record):
    assert t.replay(record) == game[2]


def test_a_draft_game_records_and_replays():
    initial, moves, states = finished_game(seed=5, draft=True, must_pick=True)
    assert moves[0].startswith("keep")
    assert t.replay(t.make_record(initial, moves, seed=5, names=NAMES)) == states


def test_a_record_from_an_undealt_position_has_no_seed():
    _, moves, states = finished_game()
    start = states[6]
    record = t.make_record(start, moves[6:], seed=None, names=NAMES)
    assert t.replay(record) == states[6:]
    _expect({**record, "seed": 21}, 0, "not the deal of seed 21")


def _expect(record, ply: int, reason: str):
    with pytest.raises(RecordError) as error:
        t.replay(record)
    assert error.value.ply == ply
    assert reason in str(error.value)


def test_an_illegal_move_is_refused_at_its_ply(record):
    i = first_place_only(record)
    record["moves"][i] = "b3:E"
    _expect(record, i + 1, "no such position")


def test_a_wrong_took_is_refused_at_its_ply(record):
    i = first_take(record)
    actual = record["moves"][i]["took"]
    record["moves"][i]["took"] = "W5" if actual != "W5" else "W4"
    _expect(record, i + 1, f"takes {actual}")


def test_a_missing_or_extra_took_is_refused(record):
    i, j = first_take(record), first_place_only(record)
    missing = copy.deepcopy(record)
    missing["moves"][i] = missing["moves"][i]["move"]
    _expect(missing, i + 1, "the record says None")
    record["moves"][j] = {"move": record["moves"][j], "took": "N2"}
    _expect(record, j + 1, "takes nothing")


def test_scores_that_do_not_match_are_refused_at_the_last_ply(record):
    record["scores"][0]["total"] += 1
    _expect(record, len(record["moves"]), "scores")


def test_winners_that_do_not_match_are_refused(record):
    record["winners"] = [s for s in range(3) if s not in record["winners"]][:1]
    _expect(record, len(record["moves"]), "winners")


def test_moves_after_the_end_are_refused(record):
    record["moves"].append("a1:N")
    _expect(record, len(record["moves"]), "game is over")


def test_a_deal_that_is_not_the_seeds_deal_is_refused(record):
    rows = record["initial"]["garden"]
    rows[0][0], rows[0][1] = rows[0][1], rows[0][0]
    _expect(record, 0, "not the deal of seed 21")


def test_a_wrong_tile_multiset_is_refused(record):
    rows = record["initial"]["garden"]
    rows[0][0] = rows[0][1]
    _expect(record, 0, "is also in")
    record["initial"]["box"] = record["initial"]["box"][1:]
    record["initial"]["garden"][0][0] = record["initial"]["garden"][4][4]
    _expect(record, 0, "initial")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda r: r.pop("scores"), "missing field 'scores'"),
        (lambda r: r.update(result="1-0"), "unknown field 'result'"),
        (lambda r: r.update(game="wizards_garden"), "expected 'topiary'"),
        (lambda r: r.update(players=["ann"]), "players"),
        (lambda r: r.update(first_player=(r["first_player"] + 1) % 3), "first_player"),
        (lambda r: r["options"].update(must_pick=True), "options"),
        (lambda r: r.update(seed=[1]), "seed"),
        (lambda r: r.update(moves="a1:N"), "moves: expected a list"),
    ],
)
def test_a_bad_header_is_refused_at_ply_zero(record, change, reason):
    change(record)
    _expect(record, 0, reason)


@pytest.mark.parametrize("entry", [5, None, {"took": "N2"}, {"move": "a1:N", "who": 0}])
def test_a_move_entry_that_is_not_a_move_is_refused(record, entry):
    record["moves"][0] = entry
    _expect(record, 1, "")


def test_not_a_record_at_all():
    for garbage in (None, [], "record"):
        with pytest.raises(RecordError, match="record"):
            t.replay(garbage)


def test_make_record_refuses_illegal_moves_and_wrong_names(game):
    initial, moves, _ = game
    with pytest.raises(IllegalMove):
        t.make_record(initial, [moves[0], moves[0]], seed=21, names=NAMES)
    with pytest.raises(RecordError, match="names"):
        t.make_record(initial, moves, seed=21, names=NAMES[:2])


def test_a_turn_played_in_steps_is_recorded_as_the_finished_move():
    initial = t.new_game(t.Options(players=2), seed=8)
    take = next(step for step in initial.legal_steps() if " " in step)
    pending = initial.apply(take)
    plant = pending.legal_moves()[1]
    record = t.make_record(initial, [take, plant], seed=8, names=NAMES[:2])
    whole = t.join_steps(take, plant, initial.took(take))
    assert record["moves"] == [{"move": whole, "took": initial.took(take)}]
    assert record == t.make_record(initial, [whole], seed=8, names=NAMES[:2])
    with pytest.raises(IllegalMove, match="not planted"):
        t.make_record(initial, [take], seed=8, names=NAMES[:2])


def test_replay_refuses_a_take_step_in_a_record():
    initial = t.new_game(t.Options(players=2), seed=8)
    take = next(step for step in initial.legal_steps() if " " in step)
    record = t.make_record(initial, [], seed=8, names=NAMES[:2])
    record["moves"] = [{"move": take, "took": initial.took(take)}, "=*"]
    with pytest.raises(RecordError, match=r"ply 1.*take step"):
        t.replay(record)
