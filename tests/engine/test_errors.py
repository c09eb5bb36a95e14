"""Engine errors carry a stable code and params; the English message is the code's
template filled with them, and every raise in engine/ names a code it has."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest

from engine import puzzles, topiary, wizards_garden
from engine.errors import MESSAGES, EngineError, IllegalMove, NotationError, RecordError
from engine.games import game_definition
from engine.rng import Rng
from tests.support.positions import emptied_basket

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ERRORS = {"EngineError", "IllegalMove", "NotationError", "RecordError"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


def placeholders(template: str) -> set[str]:
    return set(PLACEHOLDER.findall(template))


def _error_calls():
    """(where, code, params) of every engine error built in engine/: the error classes
    called, and topiary's ``_require(condition, code, **params)``."""
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None)
            if name not in ERRORS and name != "_require":
                continue
            where = f"{path.relative_to(ENGINE)}:{node.lineno}"
            keywords = {k.arg: k.value for k in node.keywords}
            if name == "_require":
                code = node.args[1]
            elif None in keywords:  # RecordError(...) in RecordError.at_ply: the error's own
                continue
            else:
                code = keywords.get("code")
            # A RecordError's ply frames its message (``ply 3: ...``); it is no template param.
            special = ("code", "inner", "ply") if name == "RecordError" else ("code", "inner")
            params = {arg for arg in keywords if arg not in special}
            if "inner" in keywords:
                params.add("reason")
            yield where, code, params


def test_every_error_the_engine_raises_names_a_known_code_and_its_params():
    calls = list(_error_calls())
    assert len(calls) > 150
    for where, code, params in calls:
        assert isinstance(code, ast.Constant), f'{where}: no code="..." literal'
        assert code.value in MESSAGES, f"{where}: unknown code {code.value!r}"
        assert params == placeholders(MESSAGES[code.value]), f"{where}: params of {code.value}"


def test_every_code_is_raised_somewhere():
    raised = {code.value for _, code, _ in _error_calls()}
    # ``at_ply`` frames a RecordError's ply; the site raises ``record_without_game`` when a
    # record does not say which game's module is to replay it (games.history_selectors).
    assert set(MESSAGES) - raised == {"at_ply", "record_without_game"}


def test_codes_are_short_snake_case():
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{2,39}", code) for code in MESSAGES)


def _error(call, *args, **kwargs) -> EngineError:
    with pytest.raises(EngineError) as caught:
        call(*args, **kwargs)
    return caught.value


@pytest.fixture
def start():
    """A 2-player Topiary deal: seat 0 to move, c4 face down."""
    return topiary.new_game(topiary.Options(players=2), seed=1, first_player=0)


def test_illegal_topiary_moves_carry_their_code_and_params(start):
    error = _error(start.apply, "a1:Q")
    assert type(error) is IllegalMove
    assert (error.code, error.params) == (
        "move_no_such_position",
        {"move": "a1:Q", "position": "a1:Q"},
    )
    assert str(error) == (
        "malformed move 'a1:Q': no such position 'a1:Q' (an edge cell and a direction "
        "into the garden, like 'c5:S')"
    )
    error = _error(start.apply, "c5:S", seat=1)
    assert (error.code, error.params) == ("not_your_turn", {"move": "c5:S", "to_move": 0})
    assert str(error) == "'c5:S': not your turn, seat 0 is to move"

    placed = start.apply("c5:S")
    error = _error(placed.apply, "c5:S")
    assert (error.code, error.params) == (
        "position_occupied",
        {"move": "c5:S", "position": "c5:S"},
    )
    error = _error(placed.apply, "a1:N c3")
    assert (error.code, error.params) == (
        "cell_not_in_line",
        {"move": "a1:N c3", "cell": "c3", "position": "a1:N"},
    )
    error = _error(placed.apply, "c1:N c3")
    assert (error.code, error.params) == ("cell_face_up", {"move": "c1:N c3", "cell": "c3"})

    pending = placed.apply("c1:N c2")
    held = {topiary.TILE_NAMES[t] for t in pending.hands[pending.to_move]}
    stranger = next(name for name in topiary.TILE_NAMES if name not in held)
    error = _error(pending.apply, f"={stranger}")
    assert (error.code, error.params) == (
        "tile_not_in_hand",
        {"move": f"={stranger}", "tile": stranger},
    )
    error = _error(pending.apply, "a1:N")
    assert error.code == "plant_first"
    assert error.params == {"move": "a1:N", "cell": "c2", "position": "c1:N"}


def test_illegal_wizards_garden_moves_carry_their_code_and_params():
    state = wizards_garden.new_game(seed=1, first_player=0)
    state = state.apply("a1W").apply("d4B").apply("b2W").apply("c3B")
    error = _error(state.apply, "a1B")
    assert (error.code, error.params) == ("cell_occupied", {"cell": "a1"})
    assert str(error) == "a1 is occupied"
    error = _error(state.apply, "d1B")
    assert (error.code, error.params) == ("not_next_to_seed", {"cell": "d1"})
    error = _error(state.apply, "a2W", seat=1)
    assert (error.code, error.params) == ("wg_not_your_turn", {"to_move": 0})


def test_an_end_reason_is_a_param_the_site_translates_as_an_engine_word():
    position = emptied_basket("play")
    error = _error(wizards_garden.state_from_json, position)
    assert type(error) is NotationError
    assert error.code == "wg_play_but_over"
    assert error.params == {"end_reason": "the basket is empty"}
    assert error.params["end_reason"] in wizards_garden.END_REASONS


def test_a_table_for_the_wrong_number_of_players_names_the_game_and_the_seats():
    error = _error(game_definition("wizards_garden").table_options, 3, {})
    assert (error.code, error.params) == (
        "players_not_for_game",
        {"game": "Wizards' Garden", "seats": "2"},
    )
    assert str(error) == "Wizards' Garden is for 2 players"


def test_a_wrapped_error_keeps_the_inner_one_for_its_reason(start):
    position = puzzles.candidate_position(Rng(7), 2).to_json()
    error = _error(puzzles.grade, position, ["a1:Q", "a2:E"])
    assert error.code == "puzzle_move_illegal"
    assert error.inner.code == "move_no_such_position"
    assert error.params == {"ply": 1, "reason": str(error.inner)}
    assert str(error) == f"move 1: {error.inner}"


def test_a_record_error_at_a_ply_is_the_move_error_with_the_ply_in_front(start):
    record = topiary.make_record(start, ["c5:S"], seed=1, names=["ann", "bob"])
    record["moves"] = ["c5:S", "c5:S"]
    error = _error(topiary.replay, record)
    assert type(error) is RecordError
    assert (error.ply, error.code) == (2, "position_occupied")
    assert error.params == {"move": "c5:S", "position": "c5:S"}
    assert error.message == "'c5:S': position c5:S is occupied"
    assert str(error) == "ply 2: 'c5:S': position c5:S is occupied"
    record["seed"] = 2
    error = _error(topiary.replay, record)
    assert (error.ply, error.code, error.inner.code) == (0, "record_initial", "not_seed_deal")
    assert str(error) == "initial: not the deal of seed 2"


def test_an_error_without_a_code_is_its_message():
    error = IllegalMove("b4 is not an empty cell")
    assert (str(error), error.code, error.params, error.inner) == (
        "b4 is not an empty cell",
        "",
        {},
        None,
    )
    assert str(RecordError("does not replay", 3)) == "ply 3: does not replay"


def test_errors_survive_pickling(start):
    for error in (
        _error(start.apply, "a1:Q"),
        RecordError.at_ply(_error(start.apply, "a1:Q"), 4),
        IllegalMove("free text"),
    ):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error)
        assert (str(copy), copy.code, copy.params) == (str(error), error.code, error.params)
        assert getattr(copy, "ply", 0) == getattr(error, "ply", 0)
