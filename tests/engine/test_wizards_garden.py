"""Wizards' Garden rules, one test per rule, and its notation, views and records."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import wizards_garden as wg
from engine.errors import EngineError, IllegalMove, NotationError, RecordError
from engine.positions import wizards_garden_position as position_json
from engine.rng import Rng
from tests.engine import load_example


def position(*rows: str, **fields) -> wg.State:
    return wg.state_from_json(position_json(*rows, **fields))


def board(state: wg.State) -> list[str]:
    return ["".join(row) for row in state.to_json()["board"]]


def flowers(state: wg.State) -> list[dict]:
    return state.to_json()["harvested"]


def example(name: str) -> dict:
    return load_example(name)


# Setup


def test_new_game_starts_in_setup_with_every_seed_in_the_basket():
    state = wg.new_game(wg.Options(), seed=1)
    assert state.phase == "setup"
    assert state.basket == 20
    assert board(state) == ["...."] * 4
    assert state.score()["winners"] == [0, 1]
    assert len(state.legal_moves()) == 32


def test_first_player_is_drawn_from_the_seed_unless_given():
    drawn = {seed: wg.new_game(wg.Options(), seed=seed).to_move for seed in range(40)}
    assert set(drawn.values()) == {0, 1}
    assert all(wg.new_game(wg.Options(), seed=s).to_move == first for s, first in drawn.items())
    assert wg.new_game(wg.Options(), seed=3, first_player=1).to_move == 1
    assert wg.new_game(wg.Options(), seed=3, first_player=0).to_move == 0
    with pytest.raises(EngineError, match="first_player"):
        wg.new_game(wg.Options(), seed=3, first_player=2)


@pytest.mark.parametrize("first", [0, 1])
def test_setup_alternates_four_placements_then_the_first_player_plants(first):
    state = wg.new_game(wg.Options(), seed=0, first_player=first)
    movers = []
    for move in ["a1W", "d4B", "b3B", "c1W"]:
        assert state.phase == "setup"
        movers.append(state.to_move)
        state = state.apply(move)
    assert movers == [first, 1 - first, first, 1 - first]
    assert state.phase == "play"
    assert state.to_move == first
    assert state.basket == 16
    assert board(state) == ["...B", ".B..", "....", "W.W."]


def test_setup_placements_go_anywhere_and_flip_nothing():
    state = wg.new_game(wg.Options(), seed=0, first_player=0)
    for move in ["b2W", "b3B", "c2B", "d4W"]:
        state = state.apply(move)
    assert board(state) == ["...W", ".B..", ".WB.", "...."]


def test_a_setup_placement_may_not_complete_a_line_of_one_colour():
    state = position("....", "....", "....", "WWW.", phase="setup", to_move=1)
    with pytest.raises(IllegalMove, match="d1W would complete a1-d1"):
        state.apply("d1W")
    assert "d1W" not in state.legal_moves()
    assert "d1B" in state.legal_moves()
    assert state.apply("d1B").phase == "play"


def test_setup_apart_keeps_setup_seeds_off_each_others_sides():
    apart = wg.new_game(wg.Options(setup_apart=True), seed=0, first_player=0).apply("b2W")
    for cell in ["a2", "c2", "b1", "b3"]:
        with pytest.raises(IllegalMove, match="setup_apart"):
            apart.apply(f"{cell}B")
        assert f"{cell}B" not in apart.legal_moves()
    assert apart.apply("a1B").to_json()["board"][3] == ["B", ".", ".", "."]
    together = wg.new_game(wg.Options(), seed=0, first_player=0).apply("b2W")
    assert together.apply("b3B").phase == "setup"


def test_setup_apart_does_not_restrict_planting():
    state = wg.new_game(wg.Options(setup_apart=True), seed=0, first_player=0)
    for move in ["a1W", "c1W", "a3B", "c3B"]:
        state = state.apply(move)
    assert state.phase == "play"
    assert state.apply("b1W").to_json()["board"][3] == ["B", "W", "B", "."]


def test_a_setup_placement_names_no_harvest():
    state = wg.new_game(wg.Options(), seed=0)
    with pytest.raises(IllegalMove, match="setup placement harvests nothing"):
        state.apply("b2B/a1-d1")


# Planting


def test_a_seed_must_be_planted_next_to_a_seed():
    state = position("....", "....", ".WB.", ".BW.")
    with pytest.raises(IllegalMove, match="d4 is not next to a seed"):
        state.apply("d4W")
    assert all(move[:2] not in {"a4", "b4", "c4", "d4"} for move in state.legal_moves())


def test_a_seed_may_not_be_planted_on_an_occupied_cell():
    state = position("....", "....", ".WB.", ".BW.")
    with pytest.raises(IllegalMove, match="b2 is occupied"):
        state.apply("b2B")


def test_planting_flips_orthogonal_neighbours_and_not_diagonal_ones():
    state = position("....", ".BW.", "W.B.", "BW..")
    after = state.apply("b2W")
    assert board(after) == ["....", ".WW.", "BWW.", "BB.."]
    assert after.basket == state.basket - 1
    assert after.to_move == 1


def test_either_side_may_be_planted():
    state = position("....", "....", ".WB.", ".BW.")
    assert board(state.apply("a2B")) == ["....", "....", "BBB.", ".BW."]
    assert board(state.apply("a2W")) == ["....", "....", "WBB.", ".BW."]


# Harvesting


def test_a_line_of_one_colour_is_harvested_for_one_flower_and_three_seeds_back():
    state = position("....", "....", "...B", "WWB.")
    after = state.apply("d1W")
    assert board(after) == ["....", "....", "...W", "...."]
    assert flowers(after) == [{"W": 1, "B": 0}, {"W": 0, "B": 0}]
    assert after.basket == state.basket - 1 + 3
    assert after.staff is None


def test_harvesting_black_takes_the_staff_from_the_other_player():
    state = position("....", "....", "...W", "BBW.", harvested=((0, 0), (0, 1)), staff=1)
    after = state.apply("d1B")
    assert after.staff == 0
    assert flowers(after) == [{"W": 0, "B": 1}, {"W": 0, "B": 1}]
    assert after.score()["scores"][0]["staff"] is True


def test_harvesting_white_leaves_the_staff_where_it_is():
    state = position("....", "....", "...B", "WWB.", harvested=((0, 0), (0, 1)), staff=1)
    assert state.apply("d1W").staff == 1


def test_disjoint_harvests_are_all_taken_and_any_black_one_brings_the_staff():
    state = position("B...", "....", "WBWW", "W.WB")
    assert "b1B" in state.legal_moves()
    after = state.apply("b1B")
    assert board(after) == ["B...", "....", "....", "...."]
    assert flowers(after) == [{"W": 1, "B": 1}, {"W": 0, "B": 0}]
    assert after.staff == 0
    assert after.basket == state.basket - 1 + 6


def test_the_example_offers_a_choice_between_lines_that_share_a_seed():
    state = wg.state_from_json(example("wizards_garden_moves.json")["position"])
    with pytest.raises(IllegalMove, match=r"name one of c2B/a1-d4, c2B/c1-c4"):
        state.apply("c2B")
    diagonal = state.apply("c2B/a1-d4")
    column = state.apply("c2B/c1-c4")
    assert board(diagonal) == [".WB.", "WB.B", "W.B.", ".BB."]
    assert board(column) == [".W.B", "WB.B", "WB..", "BB.."]
    for after in (diagonal, column):
        assert flowers(after)[0] == {"W": 1, "B": 2}
        assert after.staff == 0
        assert after.basket == 3 - 1 + 3


def test_a_named_harvest_must_be_a_maximal_set_of_disjoint_lines():
    state = position(".B..", "BWBB", "....", "BWBB")
    assert [m for m in state.legal_moves() if m.startswith("b2B")] == [
        "b2B/a1-d1,a3-d3",
        "b2B/b1-b4",
    ]
    rows = state.apply("b2B/a1-d1,a3-d3")
    assert board(rows) == [".B..", "....", ".B..", "...."]
    assert flowers(rows)[0] == {"W": 0, "B": 2}
    column = state.apply("b2B/b1-b4")
    assert board(column) == ["....", "B.BB", "....", "B.BB"]
    assert flowers(column)[0] == {"W": 0, "B": 1}
    with pytest.raises(IllegalMove, match="must also harvest a3-d3"):
        state.apply("b2B/a1-d1")
    with pytest.raises(IllegalMove, match="a1-d1 and b1-b4 share b1"):
        state.apply("b2B/a1-d1,b1-b4")
    with pytest.raises(IllegalMove, match="a2-d2 is not a harvest"):
        state.apply("b2B/a2-d2")
    with pytest.raises(IllegalMove, match="unknown line 'b4-b1'"):
        state.apply("b2B/b4-b1")
    with pytest.raises(IllegalMove, match="named twice"):
        state.apply("b2B/b1-b4,b1-b4")


def test_named_lines_in_any_order_mean_the_same_move():
    state = position(".B..", "BWBB", "....", "BWBB")
    assert state.apply("b2B/a3-d3,a1-d1") == state.apply("b2B/a1-d1,a3-d3")
    assert state.canonical("b2B/a3-d3,a1-d1") == "b2B/a1-d1,a3-d3"


def test_naming_the_only_harvest_is_accepted_and_dropped_from_the_canonical_move():
    state = wg.state_from_json(example("wizards_garden_moves.json")["position"])
    assert state.apply("c2W/a1-d4") == state.apply("c2W")
    assert state.canonical("c2W/a1-d4") == "c2W"
    with pytest.raises(IllegalMove, match="d2W harvests nothing"):
        state.apply("d2W/a1-d4")


# End and winner


def test_the_game_ends_when_the_basket_is_empty():
    state = position("....", "....", "WB..", "BW..", harvested=((4, 4), (4, 3)), staff=0, to_move=1)
    assert state.basket == 1
    after = state.apply("c1W")
    assert after.is_over
    assert after.end_reason() == "the basket is empty"
    assert after.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over: the basket is empty"):
        after.apply("d1W")


def test_the_game_ends_when_the_board_is_full():
    state = position("WWBW", "B.BB", "BBBW", "BWWB", basket=5, harvested=((0, 0), (0, 0)))
    after = state.apply("b3B")
    assert board(after) == ["WBBW", "WBWB", "BWBW", "BWWB"]
    assert after.is_over
    assert after.end_reason() == "the board is full"
    assert after.basket == 4
    assert after.score()["winners"] == [0, 1]


def test_the_game_ends_when_a_harvest_empties_the_board():
    state = position("....", "....", "WBWW", "W.WB")
    after = state.apply("b1B")
    assert board(after) == ["...."] * 4
    assert after.is_over
    assert after.end_reason() == "the board is empty"
    assert after.basket == state.basket - 1 + 6
    assert after.score()["winners"] == [0]


def test_more_flowers_win_whatever_their_colour_and_whoever_holds_the_staff():
    state = position("W...", "B...", "W...", "B...", harvested=((5, 0), (1, 3)), staff=1)
    assert state.score() == {
        "scores": [
            {"seat": 0, "W": 5, "B": 0, "flowers": 5, "staff": False, "total": 5},
            {"seat": 1, "W": 1, "B": 3, "flowers": 4, "staff": True, "total": 4},
        ],
        "winners": [0],
    }


def test_a_tie_goes_to_the_staff_holder():
    state = position("W...", "B...", "W...", "B...", harvested=((2, 2), (3, 1)), staff=1)
    assert state.score()["winners"] == [1]


def test_a_tie_without_the_staff_is_a_draw_listing_both_seats():
    state = position("W...", "B...", "W...", "B...", harvested=((2, 0), (2, 0)))
    assert state.score()["winners"] == [0, 1]


# Moves as text and as codes


@pytest.mark.parametrize("move", ["", "a2", "e1W", "a5B", "a2X", "a2w", " a2B", "a2B/", "a2Bx"])
def test_malformed_moves_are_refused_with_the_expected_form(move):
    state = position("....", "....", ".WB.", ".BW.")
    with pytest.raises(IllegalMove, match=r"malformed move|unknown line"):
        state.apply(move)


def test_a_seat_that_is_not_to_move_is_told_so():
    state = position("....", "....", ".WB.", ".BW.", to_move=1)
    with pytest.raises(IllegalMove, match="not your turn: seat 1 is to move"):
        state.apply("a2W", seat=0)
    assert state.apply("a2W", seat=1) == state.apply("a2W")


def test_move_codes_are_the_legal_moves():
    state = wg.state_from_json(example("wizards_garden_moves.json")["position"])
    codes = state.move_codes()
    assert sorted(wg.move_name(code) for code in codes) == state.legal_moves()
    for code in codes:
        move = wg.move_name(code)
        assert state.code_of(move) == code
        assert state.apply_code(code) == state.apply(move)


def test_states_are_immutable_values():
    state = position("....", "....", ".WB.", ".BW.")
    before = state.to_json()
    after = state.apply("a2W")
    assert state.to_json() == before
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.basket = 3
    assert position("....", "....", ".WB.", ".BW.") == state
    assert len({state, position("....", "....", ".WB.", ".BW."), after}) == 2
    assert state.took("a2W") is None


def test_every_turn_is_one_step_and_every_move_is_seen_as_played():
    """The API shared with Topiary's two-step take: here nothing is split or hidden."""
    state = position("....", "....", ".WB.", ".BW.")
    assert state.pending_step is None and state.legal_steps() == state.legal_moves()
    view = state.view(state.to_move)
    assert view.pending_step is None and view.legal_steps() == view.legal_moves()
    assert state.view(1 - state.to_move).legal_steps() == []
    for viewer in (0, 1, None):
        seen = wg.move_seen_by("a2W", mover=0, viewer=viewer, took=None, over=False)
        assert seen == "a2W"


# Positions as JSON


def test_the_example_gives_exactly_its_moves():
    data = example("wizards_garden_moves.json")
    state = wg.state_from_json(data["position"])
    assert state.legal_moves() == sorted(data["moves"])


def test_a_position_reads_rank_four_first_and_round_trips():
    data = position_json("B..W", "....", "....", ".W.B")
    state = wg.state_from_json(data)
    assert state.cell("a4") == "B"
    assert state.cell("b1") == "W"
    assert state.to_json() == {**data, "options": {"setup_apart": False}}
    assert wg.state_from_json(state.to_json()) == state
    assert wg.state_from_json(example("wizards_garden_moves.json")["position"]).to_json() == {
        **example("wizards_garden_moves.json")["position"],
        "options": {"setup_apart": False},
    }


def test_options_default_when_left_out_and_round_trip():
    assert wg.Options.from_json({}) == wg.Options()
    assert wg.Options.from_json(None) == wg.Options()
    apart = wg.Options.from_json({"setup_apart": True})
    assert apart.setup_apart is True
    assert wg.Options.from_json(apart.to_json()) == apart
    data = position_json(
        "....", "....", "....", "B...", phase="setup", options={"setup_apart": True}
    )
    assert wg.state_from_json(data).options == apart


GOOD = position_json("....", "....", ".WB.", ".BW.")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "topiary"}, "field 'game' must be 'wizards_garden'"),
        ({"colour": "W"}, "unknown field 'colour'"),
        ({"board": [["."] * 4] * 3}, "field 'board' must be 4 rows"),
        ({"board": [["."] * 4, ["."] * 5, ["."] * 4, ["."] * 4]}, r"board row 2 \(rank 3\)"),
        ({"board": [["."] * 4, ["."] * 4, [".", "W", "X", "."], [".", "B", "W", "."]]}, "cell c2"),
        ({"basket": 21}, "field 'basket' must be a whole number 0-20"),
        ({"basket": "16"}, "field 'basket'"),
        ({"basket": 15}, "seeds must add up to 20: board 4 [+] basket 15"),
        ({"harvested": [{"W": 0, "B": 0}]}, "field 'harvested'"),
        ({"harvested": [{"W": 0, "B": 0}, {"W": -1, "B": 0}]}, r"harvested\[1\].W"),
        ({"harvested": [{"W": 0}, {"W": 0, "B": 0}]}, r"harvested\[0\]"),
        ({"staff": 2}, "field 'staff' must be null, 0 or 1"),
        ({"staff": 0}, "seat 0 holds the staff without a black flower"),
        ({"to_move": 2}, "field 'to_move'"),
        ({"to_move": True}, "field 'to_move'"),
        ({"phase": "draft"}, "field 'phase'"),
        ({"options": {"setup_apart": 1}}, "option 'setup_apart' must be true or false"),
        ({"options": {"apart": True}}, "unknown option 'apart'"),
        ({"phase": "over"}, "phase 'over', but seat 0 can still plant"),
        ({"phase": "setup"}, "phase 'setup' with 4 seeds"),
    ],
)
def test_malformed_positions_are_refused_naming_the_field(change, message):
    with pytest.raises(NotationError, match=message):
        wg.state_from_json({**GOOD, **change})


def test_a_missing_field_is_named():
    data = dict(GOOD)
    del data["staff"]
    with pytest.raises(NotationError, match="missing field 'staff'"):
        wg.state_from_json(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            position_json("....", "....", ".WB.", ".BW.", harvested=((0, 1), (0, 0))),
            "'staff' is null, but a black line was harvested",
        ),
        (position_json("....", "....", "WWWW", ".B.."), "line a2-d2 is four seeds of one colour"),
        (
            position_json(
                "....", "....", ".W..", ".B..", phase="setup", options={"setup_apart": True}
            ),
            "cell b1: setup_apart",
        ),
        (
            position_json(
                "....", "....", ".W..", ".B..", harvested=((1, 0), (0, 0)), phase="setup"
            ),
            "phase 'setup', but flowers",
        ),
        (position_json("....", "....", ".W..", ".B.."), "no harvest yet: setup places 4"),
        (
            position_json("....", "....", ".WB.", ".BW.", basket=0, harvested=((8, 0), (8, 0))),
            "phase 'play', but the game is over: the basket is empty",
        ),
    ],
)
def test_positions_the_rules_cannot_reach_are_refused(data, message):
    with pytest.raises(NotationError, match=message):
        wg.state_from_json(data)


def test_setup_seeds_may_touch_and_a_finished_game_may_have_an_empty_basket():
    touching = position_json("....", "....", ".W..", ".B..", phase="setup")
    assert wg.state_from_json(touching).phase == "setup"
    finished = position_json(
        "....", "....", ".WB.", ".BW.", basket=0, harvested=((8, 0), (8, 0)), phase="over"
    )
    assert wg.state_from_json(finished).end_reason() == "the basket is empty"


def test_a_position_must_be_an_object():
    with pytest.raises(NotationError, match="JSON object"):
        wg.state_from_json([])


# Views


def test_views_show_the_position_and_only_the_mover_gets_moves():
    state = position("....", "....", ".WB.", ".BW.", to_move=1)
    mover, other, spectator = state.view(1), state.view(0), state.spectator_view()
    assert mover.legal_moves() == state.legal_moves()
    assert other.legal_moves() == []
    assert spectator.legal_moves() == []
    assert spectator.seat is None
    for view in (mover, other, spectator):
        assert view.to_json() == state.to_json()
        assert view.public_score() == state.score()
        assert (view.players, view.to_move, view.phase, view.is_over) == (2, 1, "play", False)
        assert not hasattr(view, "apply")
    assert wg.state_from_view(mover) == state
    assert position("....", "....", ".WB.", ".BW.", to_move=1).view(1) == mover
    with pytest.raises(EngineError, match="no seat 2"):
        state.view(2)


# Records


def random_game(seed: int, options=None, first_player=None) -> tuple[wg.State, list[str]]:
    """A whole game of seeded random moves: the start and the moves."""
    rng = Rng(seed)
    start = state = wg.new_game(options or wg.Options(), seed=seed, first_player=first_player)
    moves = []
    while not state.is_over:
        moves.append(rng.choice(state.legal_moves()))
        state = state.apply(moves[-1])
    return start, moves


def test_a_record_replays_every_state_and_the_scores():
    start, moves = random_game(11)
    record = wg.make_record(start, moves, seed=11, names=["ada", "bo"])
    assert json.loads(json.dumps(record)) == record
    states = wg.replay(record)
    assert len(states) == len(moves) + 1
    assert states[0] == start
    assert states[-1].is_over
    expected = start
    for move, state in zip(moves, states[1:], strict=True):
        expected = expected.apply(move)
        assert state == expected
    assert record["first_player"] == start.to_move
    assert record["players"] == ["ada", "bo"]
    assert {"scores": record["scores"], "winners": record["winners"]} == states[-1].score()


def test_a_record_of_a_chosen_first_player_and_options_replays():
    start, moves = random_game(12, wg.Options(setup_apart=True), first_player=1)
    record = wg.make_record(start, moves, seed=12, names=["ada", "bo"])
    assert record["first_player"] == 1
    assert record["options"] == {"setup_apart": True}
    assert wg.replay(record)[0] == start


def test_a_record_stores_moves_in_canonical_notation():
    start = wg.state_from_json(example("wizards_garden_moves.json")["position"])
    record = wg.make_record(start, ["c2W/a1-d4"], seed=None, names=["ada", "bo"])
    assert record["moves"] == ["c2W"]
    assert wg.replay(record)[-1] == start.apply("c2W")


def test_a_seeded_record_must_start_from_a_deal():
    start = wg.state_from_json(example("wizards_garden_moves.json")["position"])
    record = wg.make_record(start, ["c2W"], seed=5, names=["ada", "bo"])
    with pytest.raises(RecordError, match="not the deal of seed 5") as caught:
        wg.replay(record)
    assert caught.value.ply == 0


def test_a_record_from_mid_setup_knows_who_placed_first():
    start = wg.new_game(wg.Options(), seed=0, first_player=1).apply("a1W")
    record = wg.make_record(start, ["d4B", "b2W"], seed=None, names=["ada", "bo"])
    assert record["first_player"] == 1
    assert wg.replay(record)[-1].to_move == 0


def test_an_illegal_move_in_a_record_is_rejected_with_its_ply():
    start, moves = random_game(13)
    record = wg.make_record(start, moves, seed=13, names=["ada", "bo"])
    record["moves"][6] = record["moves"][2]
    with pytest.raises(RecordError, match=r"ply 7: .* is occupied") as caught:
        wg.replay(record)
    assert caught.value.ply == 7
    with pytest.raises(IllegalMove, match="is occupied"):
        wg.make_record(start, record["moves"], seed=13, names=["ada", "bo"])


@pytest.mark.parametrize(
    ("change", "message", "ply"),
    [
        ({"game": "topiary"}, "game: 'topiary'", 0),
        ({"players": ["ada"]}, "players: expected 2", 0),
        ({"moves": "a1W"}, "moves: expected a list", 0),
        ({"first_player": 2}, "first_player: 2", 0),
        ({"options": {"setup_apart": True}}, "options: differ", 0),
        ({"initial": {"game": "wizards_garden"}}, "missing field 'board'", 0),
        ({"winners": [7]}, "scores: the record says", -1),
        ({"extra": 1}, "unknown field 'extra'", 0),
    ],
)
def test_a_tampered_record_is_rejected_naming_the_ply(change, message, ply):
    start, moves = random_game(14)
    record = {**wg.make_record(start, moves, seed=14, names=["ada", "bo"]), **change}
    with pytest.raises(RecordError, match=message) as caught:
        wg.replay(record)
    assert caught.value.ply == (len(moves) if ply < 0 else ply)


def test_a_record_missing_a_field_is_rejected():
    start, moves = random_game(15)
    record = wg.make_record(start, moves, seed=15, names=["ada", "bo"])
    del record["scores"]
    with pytest.raises(RecordError, match="missing field 'scores'"):
        wg.replay(record)
