"""Topiary, rule by rule (TOPIARY.md), with the rulebook examples and the shared examples."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import fastplay
from engine import topiary as t
from engine.errors import IllegalMove, NotationError
from engine.positions import topiary_position
from engine.rng import Rng
from engine.topiary.scoring import _sight_lines
from tests.engine import load_example


def state(garden: dict[str, str], **kwargs) -> t.State:
    return t.state_from_json(topiary_position(garden, **kwargs))


def seat_score(s: t.State, seat: int) -> dict:
    return s.score()["scores"][seat]


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "in_game", "box"), [(2, 35, 4), (3, 35, 1), (4, 40, 3)])
def test_deal_follows_the_setup(players, in_game, box):
    s = t.new_game(t.Options(players=players), seed=7)
    face_up = [c for c in range(25) if s.garden[c] < t.FACE_DOWN]
    assert face_up == [t.CENTRE]
    assert all(len(hand) == 3 for hand in s.hands)
    assert len(s.box) == box
    dealt = sorted([x % t.FACE_DOWN for x in s.garden] + [x for h in s.hands for x in h] + [*s.box])
    assert len(dealt) == in_game == len(set(dealt))
    if players == 4:
        assert s.removed_type is None
    else:
        assert all(t.TILE_TYPE[x] != s.removed_type for x in dealt)
        assert len({t.TILE_TYPE[x] for x in dealt}) == 7
    assert s.unplaced == (t.VISITORS_PER_PLAYER[players],) * players
    assert s.phase == "play" and s.to_move == s.first_player


def test_deal_is_the_documented_procedure():
    """Re-deal seed 2024 for 3 players by hand, following the module docstring step by step."""
    rng = Rng(2024)
    removed = "EHNOPRSW"[rng.randbelow(8)]
    first = rng.randbelow(3)
    tiles = [f"{k}{v}" for k in "EHNOPRSW" for v in range(1, 6) if k != removed]
    rng.shuffle(tiles)
    rows = [[x.lower() for x in tiles[r * 5 : r * 5 + 5]] for r in range(5)]
    rows[2][2] = rows[2][2].upper()
    dealt = t.new_game(t.Options(players=3), seed=2024).to_json()
    assert dealt["removed_type"] == removed
    assert dealt["first_player"] == first == dealt["to_move"]
    assert dealt["garden"] == rows
    assert dealt["hands"] == [sorted(tiles[25 + 3 * s : 28 + 3 * s]) for s in range(3)]
    assert dealt["box"] == sorted(tiles[34:])


def test_same_seed_same_deal_and_seeds_differ():
    options = t.Options(players=2)
    assert t.new_game(options, seed="table-9") == t.new_game(options, seed="table-9")
    assert t.new_game(options, seed=1) != t.new_game(options, seed=2)


def test_given_removed_type_and_first_player_are_used():
    s = t.new_game(t.Options(players=3), seed=3, removed_type="W", first_player=2)
    assert t.TYPES[s.removed_type] == "W" and s.first_player == 2 == s.to_move
    drawn = t.new_game(t.Options(players=3), seed=3)
    same = t.new_game(
        t.Options(players=3),
        seed=3,
        removed_type=t.TYPES[drawn.removed_type],
        first_player=drawn.first_player,
    )
    assert same == drawn


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"removed_type": "X"}, "removed_type"),
        ({"first_player": 2}, "first_player"),
        ({"first_player": "0"}, "first_player"),
    ],
)
def test_bad_setup_choices_are_named(kwargs, field):
    with pytest.raises(NotationError, match=field):
        t.new_game(t.Options(players=2), seed=1, **kwargs)


def test_no_type_removed_with_four_players():
    with pytest.raises(NotationError, match="4 players"):
        t.new_game(t.Options(players=4), seed=1, removed_type="E")


@pytest.mark.parametrize(
    "bad", [{"players": 5}, {"players": 2, "tiebreak": "coin"}, {"players": 2, "draft": "yes"}]
)
def test_bad_options_are_refused(bad):
    with pytest.raises(NotationError, match="options"):
        t.Options(**bad)


# --------------------------------------------------------------------------- positions


def test_fifty_six_positions_each_with_its_entry_behind_off_board():
    assert len(t.POSITIONS) == 56 == len(set(t.POSITIONS))
    for name, line in zip(t.POSITIONS, t.LINES, strict=True):
        cell, direction = name.split(":")
        assert t.CELLS[line[0]] == cell
        df, dr = t.DIRECTIONS[direction]
        f, r = t.FILES.index(cell[0]) - df, int(cell[1]) - 1 - dr
        assert not (0 <= f < 5 and 0 <= r < 5)
    lengths = sorted(len(line) for line in t.LINES)
    assert lengths.count(5) == 20 + 4 and lengths.count(1) == 8


def test_corner_diagonals_option_leaves_out_the_single_tile_positions():
    singles = {t.POSITIONS[p] for p in t.Options().positions if len(t.LINES[p]) == 1}
    assert singles == {
        "a1:SE", "a1:NW", "e5:SE", "e5:NW", "a5:NE", "a5:SW", "e1:NE", "e1:SW",
    }  # fmt: skip
    assert len(t.Options(corner_diagonals=False).positions) == 48
    s = t.new_game(t.Options(corner_diagonals=False), seed=1)
    assert not any(m.split()[0] in singles for m in s.legal_moves())
    with pytest.raises(IllegalMove, match="not in play"):
        s.apply("a1:SE")


def test_sight_lines_follow_notation():
    line = dict(zip(t.POSITIONS, ([t.CELLS[c] for c in cells] for cells in t.LINES), strict=True))
    assert line["c5:S"] == ["c5", "c4", "c3", "c2", "c1"]
    assert line["a1:NE"] == ["a1", "b2", "c3", "d4", "e5"]
    assert line["a1:SE"] == ["a1"]
    assert line["e3:SW"] == ["e3", "d2", "c1"]
    assert line["e1:N"] != line["e5:S"] and sorted(line["e1:N"]) == sorted(line["e5:S"])


# --------------------------------------------------------------------------- moves


def test_legal_moves_of_the_shared_example():
    example = load_example("topiary_moves_3p.json")
    s = t.state_from_json(example["position"])
    assert s.legal_moves() == sorted(example["moves"])


def test_moves_are_place_or_take_each_once():
    s = state({"a1": "H3", "b1": "r2", "c1": "O4", "d1": "N4", "e1": "s5"})
    hand = [t.TILE_NAMES[x] for x in s.hands[0]]
    along_row = [m for m in s.legal_moves() if m.startswith("a1:E")]
    assert along_row == sorted(
        ["a1:E"] + [f"a1:E {cell}={p}" for cell in ("b1", "e1") for p in ["*", *hand]]
    )
    assert len(s.legal_moves()) == len(set(s.legal_moves()))


def test_must_pick_forbids_placing_without_a_take_when_the_line_has_face_down():
    face_up = {c: f"W{i + 1}" for i, c in enumerate(["a1", "b1", "c1", "d1", "e1"])}
    s = state(face_up, options={"must_pick": True})
    moves = s.legal_moves()
    assert "a1:E" in moves  # row 1 is all face up: nothing to take
    assert "a2:E" not in moves and "a2:E a2=*" in moves
    with pytest.raises(IllegalMove, match="must take"):
        s.apply("a2:E")
    assert "a2:E" in state(face_up).legal_moves()


def test_place_only_puts_the_visitor_and_passes_the_turn():
    s = t.new_game(t.Options(players=2), seed=1, first_player=0)
    after = s.apply("c5:S")
    assert after.to_json()["visitors"] == {"c5:S": 0}
    assert after.unplaced == (7, 8) and after.to_move == 1
    assert after.garden == s.garden and after.hands == s.hands
    assert s.to_json()["visitors"] == {}  # the old state is untouched


def test_take_and_plant_a_hand_tile():
    s = state({"c5": "W1", "c4": "n2"}, hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]])
    after = s.apply("c5:S c4=P5")
    data = after.to_json()
    assert data["garden"][1][2] == "P5"
    assert data["hands"][0] == ["N2", "R1", "W2"]
    assert s.took("c5:S c4=P5") == "N2"


def test_take_and_plant_the_taken_tile_with_star():
    s = state({"c5": "W1", "c4": "n2"}, hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]])
    after = s.apply("c5:S c4=*")
    assert after.to_json()["garden"][1][2] == "N2"
    assert after.hands == s.hands


def test_naming_the_hidden_tile_instead_of_star_is_refused_like_any_tile_not_in_hand():
    """RULES_DECISIONS: accepting it would let a player probe face-down identities."""
    s = state({"c5": "W1", "c4": "n2"}, hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]])
    with pytest.raises(IllegalMove) as hidden:
        s.apply("c5:S c4=N2")
    with pytest.raises(IllegalMove) as other:
        s.apply("c5:S c4=H4")
    assert str(hidden.value).replace("N2", "H4") == str(other.value)
    assert "not in your hand" in str(hidden.value)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("a1:E", "occupied"),
        ("c5:S b4=*", "not in the sight line"),
        ("c5:S c3=*", "face up"),
        ("c5:S c4=S1", "not in your hand"),
        ("b3:E", "no such position"),
        ("a1:Q", "no such position"),
        ("", "malformed"),
        ("c5:S c4:", "malformed"),
        ("c5:S b4", "not in the sight line"),
        ("c5:S c3", "face up"),
        ("=*", "nothing to plant, no take is pending"),
        ("c5:S c4=X9", "not a tile"),
        ("c5:S c4=* d4=*", "malformed"),
        ("keep R1 W2 P5", "draft is over"),
    ],
)
def test_illegal_moves_say_why(move, reason):
    s = state(
        {"c5": "W1", "c4": "n2"},
        visitors={"a1:E": 1},
        hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]],
    )
    with pytest.raises(IllegalMove, match=reason):
        s.apply(move)


def test_moves_out_of_turn_and_after_the_end_are_refused():
    s = t.new_game(t.Options(players=3), seed=4, first_player=1)
    with pytest.raises(IllegalMove, match="not your turn, seat 1"):
        s.apply("c5:S", seat=0)
    with pytest.raises(IllegalMove, match="no seat 7"):
        s.apply("c5:S", seat=7)
    assert s.apply("c5:S", seat=1).to_move == 2
    over = t.state_from_json(load_example("topiary_finished_2p.json")["position"])
    assert over.is_over and over.legal_moves() == []
    with pytest.raises(IllegalMove, match="game is over"):
        over.apply("a1:E")


def test_a_seat_without_visitors_is_skipped_and_cannot_move():
    """A puzzle: only seat 1 has visitors left, so seat 1 moves again and again."""
    taken = ["a1:N", "b1:N", "c1:N", "d1:N", "e1:N", "a1:E", "a2:E", "a3:E"]
    visitors = dict.fromkeys(taken, 0) | {"e1:W": 1, "e2:W": 1, "e3:W": 1, "e4:W": 1}
    visitors |= {"e5:W": 1, "a4:E": 1}
    s = state({}, visitors=visitors)
    assert s.unplaced == (0, 2) and s.to_move == 1
    with pytest.raises(IllegalMove, match="no visitors left"):
        s.apply("a5:E", seat=0)
    s = s.apply("a5:E")
    assert s.to_move == 1 and s.phase == "play"
    s = s.apply("d5:S")
    assert s.is_over and s.legal_moves() == []


def test_game_ends_when_the_last_visitor_is_placed():
    rng = Rng(11)
    s = t.new_game(t.Options(players=4), seed=11)
    plies = 0
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_moves()))
        plies += 1
    assert plies == 20 and s.unplaced == (0, 0, 0, 0)
    assert len(s.to_json()["visitors"]) == 20


def test_states_are_immutable_hashable_values():
    a = t.new_game(t.Options(players=2), seed=5)
    b = t.state_from_json(json.loads(json.dumps(a.to_json())))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.to_move = 1
    assert not hasattr(a, "__dict__")


def test_fast_path_agrees_with_notation():
    s = t.new_game(t.Options(players=3, must_pick=True), seed=8)
    s = s.apply(s.legal_moves()[100])
    codes = s.move_codes()
    assert sorted(map(t.move_name, codes)) == s.legal_moves()
    for code in codes[::37]:
        move = t.move_name(code)
        assert s.code_of(move) == code
        assert s.apply_code(code) == s.apply(move)
    assert s.children() == [s.apply(t.move_name(c)) for c in codes]


def test_perft_counts_the_leaves_of_the_move_tree():
    s = t.new_game(t.Options(players=2), seed=1)
    for _ in range(12):
        s = s.apply(s.legal_moves()[0])
    assert t.perft(s, 0) == 1
    assert t.perft(s, 1) == len(s.legal_moves())
    assert t.perft(s, 2) == sum(len(s.apply(m).legal_moves()) for m in s.legal_moves())


# --------------------------------------------------------------------------- scoring


def test_rulebook_example_a_face_down_is_skipped_and_smaller_tiles_hide():
    s = state(
        {"a1": "H3", "b1": "e1", "c1": "O4", "d1": "H4", "e1": "S5"},
        visitors={"a1:E": 0},
        removed_type="R",
    )
    assert (seat_score(s, 0)["visitors"], seat_score(s, 0)["bonus"]) == (12, 0)


def test_rulebook_example_b_type_bonus_counts_visible_tiles_only():
    s = state(
        {"a1": "R2", "b1": "R3", "c1": "N4", "d1": "R5", "e1": "N5"},
        visitors={"a1:E": 0},
    )
    assert (seat_score(s, 0)["visitors"], seat_score(s, 0)["bonus"]) == (14, 3)


def test_rulebook_example_c_hand_tiles_score_below_a_larger_seen_tile():
    s = state(
        {"a2": "R3", "b2": "W4", "c2": "P4"},
        visitors={"a2:E": 0},
        hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]],
    )
    assert seat_score(s, 0)["hand"] == 3
    assert seat_score(s, 1)["hand"] == 0  # seat 1 has no visitor


def test_rulebook_example_d_total_is_visitors_plus_bonus_plus_hand():
    garden = {
        "a1": "E4", "b1": "H5",
        "a2": "N3", "b2": "O4", "c2": "P5",
        "a3": "s1", "b3": "s2", "c3": "R4", "d3": "s3", "e3": "S5",
        "a4": "W5",
        "a5": "E5",
    }  # fmt: skip
    row_visitors = {"a1:E": 0, "a2:E": 0, "a3:E": 0, "a4:E": 0, "a5:E": 0}
    s = state(
        garden,
        players=4,
        visitors=row_visitors,
        hands=[["E3", "R5", "N5"], ["O1", "O2", "O3"], ["H1", "H2", "H3"], ["W1", "W2", "W3"]],
    )
    assert seat_score(s, 0) == {"seat": 0, "visitors": 40, "bonus": 0, "hand": 3, "total": 43}
    alone = [state(garden, players=4, visitors={p: 0}) for p in row_visitors]
    assert [seat_score(x, 0)["visitors"] for x in alone] == [9, 12, 9, 5, 5]


def test_one_garden_tile_justifies_several_hand_tiles():
    s = state(
        {"a1": "W5"},
        visitors={"a1:E": 0},
        hands=[["W1", "W2", "W3"], ["S1", "S2", "S3"]],
    )
    assert seat_score(s, 0)["hand"] == 6


def test_several_types_can_score_a_bonus_for_one_visitor():
    s = state(
        {"a1": "R1", "b1": "N2", "c1": "R3", "d1": "N4", "e1": "W5"},
        visitors={"a1:E": 0},
    )
    assert seat_score(s, 0)["bonus"] == 4


@pytest.mark.parametrize("name", ["topiary_finished_2p.json", "topiary_finished_4p.json"])
def test_scores_of_the_shared_examples(name):
    example = load_example(name)
    assert t.state_from_json(example["position"]).score() == example["score"]


def _tied(first_player: int, players: int = 2, tiebreak: str = "later") -> t.State:
    return t.new_game(
        t.Options(players=players, tiebreak=tiebreak), seed=1, first_player=first_player
    )


def test_a_tie_goes_to_the_later_player_in_turn_order_from_the_first_player():
    assert _tied(0).score()["winners"] == [1]
    assert _tied(1).score()["winners"] == [0]
    assert _tied(1, players=3).score()["winners"] == [0]
    assert _tied(2, players=4).score()["winners"] == [1]


def test_tiebreak_share_lets_tied_players_share():
    assert _tied(1, players=3, tiebreak="share").score()["winners"] == [0, 1, 2]


def test_a_tie_on_total_goes_to_more_hand_points_first():
    s = state(
        {"a1": "E5", "a2": "W3"},
        visitors={"a1:E": 0, "a2:E": 1},
        hands=[["R1", "R2", "R3"], ["W2", "S1", "S2"]],
        removed_type="O",
        first_player=1,
    )
    scores = s.score()["scores"]
    assert scores[0]["total"] == scores[1]["total"] == 5
    assert s.score()["winners"] == [1]


# --------------------------------------------------------------------------- JSON


def test_json_round_trip_and_defaults():
    s = t.new_game(t.Options(players=3, draft=True, must_pick=True), seed=12)
    s = s.apply(s.legal_moves()[0])
    assert t.state_from_json(s.to_json()) == s
    minimal = topiary_position({})
    del minimal["options"]
    assert t.state_from_json(minimal).options == t.Options()


@pytest.mark.parametrize("draft", [False, True])
def test_first_player_is_derived_when_left_out(draft):
    s = t.new_game(t.Options(players=3, draft=draft), seed=1, first_player=2)
    for _ in range(4 if draft else 1):
        s = s.apply(s.legal_moves()[0])
        data = s.to_json()
        del data["first_player"]
        assert t.state_from_json(data).first_player == 2


def _with(data: dict, path: tuple, value) -> dict:
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


BASE = topiary_position(
    {"c5": "W1", "c4": "n2"}, visitors={"a1:E": 0}, hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]]
)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("garden", 1, 1), "X9", "garden b4: 'X9' is not a garden cell"),
        (("garden", 1, 1), "?", "garden b4: '?' in a full position"),
        (("garden", 2, 2), "r4", "garden c3: the centre tile is always face up"),
        (("garden", 1, 1), "W1", "W1 is also in garden"),
        (("garden", 1), ["s1"], "garden: expected 5 rows"),
        (("hands", 1, 0), "E1", "of the removed type E"),
        (("hands", 1), ["S1"], "hands[1]: expected 3 tiles"),
        (("hands", 0, 2), "R1", "hands[0]: R1 is also in hands[0]"),
        (("visitors", "z9:N"), 0, "visitors: no such position 'z9:N'"),
        (("visitors", "b1:N"), 3, "visitors.b1:N: 3 is not a seat"),
        (("unplaced",), [8, 8], "unplaced[0]: seat 0 has 1 visitors placed and 8 unplaced"),
        (("to_move",), 2, "to_move: 2 is not a seat"),
        (("phase",), "over", "phase: 'over' but visitors are still unplaced"),
        (("phase",), "draft", "draft option is off"),
        (("removed_type",), "Q", "removed_type: 'Q' is not a type letter"),
        (("options", "players"), 3, "unplaced: expected a list of 3 counts"),
        (("options", "colour"), "red", "options: unknown option 'colour'"),
        (("game",), "chess", "game: 'chess', expected 'topiary'"),
        (("box",), ["E1"], "box: does not hold exactly"),
        (("seed",), 1, "position: unknown field 'seed'"),
    ],
)
def test_malformed_positions_name_the_field(path, value, message):
    with pytest.raises(NotationError) as error:
        t.state_from_json(_with(BASE, path, value))
    assert message in str(error.value)


@pytest.mark.parametrize("garbage", [None, [], "topiary", 3, {"game": "topiary"}])
def test_garbage_is_a_notation_error_not_a_traceback(garbage):
    with pytest.raises(NotationError):
        t.state_from_json(garbage)


@pytest.mark.parametrize("move", [None, 7, ["c5:S"], "c5:S c4=**", "keep R1", "keep R1 R1 R2"])
def test_garbage_moves_are_illegal_moves(move):
    s = t.state_from_json(BASE)
    with pytest.raises(IllegalMove, match="malformed"):
        s.apply(move)


# --------------------------------------------------------------------------- draft


def _draft(players: int, seed: int = 3) -> t.State:
    return t.new_game(t.Options(players=players, draft=True), seed=seed, first_player=0)


@pytest.mark.parametrize(("players", "leftovers"), [(2, 4), (3, 1), (4, 3)])
def test_draft_runs_from_the_last_player_back_to_the_first(players, leftovers):
    s = _draft(players)
    assert s.phase == "draft" and s.box == ()
    dealt_box = t.new_game(t.Options(players=players), seed=3, first_player=0).box
    assert s.received[players - 1] == dealt_box and len(dealt_box) == leftovers
    order = []
    while s.phase == "draft":
        order.append(s.to_move)
        pool = sorted(s.hands[s.to_move] + s.received[s.to_move])
        assert len(s.legal_moves()) == len(pool) * (len(pool) - 1) * (len(pool) - 2) // 6
        keep = s.legal_moves()[-1]
        mover = s.to_move
        s = s.apply(keep)
        kept = [t.TILE_INDEX[x] for x in keep.split()[1:]]
        assert list(s.hands[mover]) == kept
        assert sorted(s.passed_on[mover] + s.hands[mover]) == pool
        if mover:
            assert s.received[mover - 1] == s.passed_on[mover]
    assert order == list(range(players - 1, -1, -1))
    assert s.phase == "play" and s.to_move == 0
    assert s.box == s.passed_on[0] and len(s.box) == leftovers


def test_draft_moves_are_checked():
    s = _draft(2)
    with pytest.raises(IllegalMove, match="draft is on"):
        s.apply("c5:S")
    outsider = next(x for x in t.ALL_TILES if x not in s.hands[1] + s.received[1])
    own = [t.TILE_NAMES[x] for x in s.hands[1][:2]]
    with pytest.raises(IllegalMove, match=f"{t.TILE_NAMES[outsider]} is not in your hand"):
        s.apply(f"keep {own[0]} {own[1]} {t.TILE_NAMES[outsider]}")
    keep = s.legal_moves()[0]
    shuffled = "keep " + " ".join(reversed(keep.split()[1:]))
    assert s.apply(shuffled) == s.apply(keep)


def test_draft_views_show_a_seat_what_it_was_passed_and_passed_on_only():
    s = _draft(3)
    s = s.apply(s.legal_moves()[0])  # seat 2 keeps, passes 1 tile to seat 1
    s = s.apply(s.legal_moves()[0])  # seat 1 keeps, passes 1 tile to seat 0
    for seat in range(3):
        draft = s.view(seat).to_json()["draft"]
        for key in ("received", "passed_on"):
            for other, tiles in enumerate(getattr(s, key)):
                shown = draft[key][other]
                if tiles is None:
                    assert shown is None
                elif other == seat:
                    assert shown == [t.TILE_NAMES[x] for x in tiles]
                else:
                    assert shown == ["?"] * len(tiles)
    assert s.view(0).legal_moves() == s.legal_moves() and s.view(1).legal_moves() == []


# --------------------------------------------------------------------------- views


def _tile_names_in(data) -> set[str]:
    return set(re.findall(r"\b[EHNOPRSW][1-5]\b", json.dumps(data)))


def test_a_seat_view_shows_public_facts_and_its_own_hand_only():
    s = t.state_from_json(load_example("topiary_moves_3p.json")["position"])
    face_up = {t.TILE_NAMES[x] for x in s.garden if x < t.FACE_DOWN}
    for seat in range(3):
        view = s.view(seat)
        data = view.to_json()
        assert _tile_names_in(data) == face_up | {t.TILE_NAMES[x] for x in s.hands[seat]}
        assert "box" not in data and "seed" not in data
        assert [len(h) for h in data["hands"]] == [3, 3, 3]
        assert data["visitors"] == s.to_json()["visitors"]
        assert data["seat"] == seat
    spectator = s.spectator_view().to_json()
    assert _tile_names_in(spectator) == face_up and spectator["seat"] is None
    face_down = sum(x >= t.FACE_DOWN for x in s.garden)
    assert sum(row.count("?") for row in spectator["garden"]) == face_down == 17


def test_view_is_a_different_object_that_cannot_play():
    view = t.new_game(t.Options(), seed=1).view(0)
    assert not isinstance(view, t.State)
    assert not hasattr(view, "apply") and not hasattr(view, "hands")
    with pytest.raises(IllegalMove, match="no seat"):
        t.new_game(t.Options(), seed=1).view(2)


def test_view_legal_moves_come_from_the_view_alone():
    s = t.state_from_json(load_example("topiary_moves_3p.json")["position"])
    assert s.view(1).legal_moves() == s.legal_moves()
    assert s.view(0).legal_moves() == [] and s.spectator_view().legal_moves() == []


@pytest.mark.parametrize(
    "options",
    [
        t.Options(players=2),
        t.Options(players=3, must_pick=True),
        t.Options(players=4, corner_diagonals=False),
    ],
)
def test_legal_moves_are_every_legal_move_named_in_sorted_order(options):
    """The names are written in order rather than sorted: they must be exactly the sorted
    names of the move codes (and of the step codes for the steps), for the mover's state
    and view, all through played games."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        s = t.new_game(options, seed=seed)
        while not s.is_over:
            named = sorted(map(t.move_name, s.move_codes()))
            assert s.legal_moves() == named
            assert s.view(s.to_move).legal_moves() == named
            steps = sorted(map(t.move_name, s.step_codes()))
            assert s.legal_steps() == steps
            assert s.view(s.to_move).legal_steps() == steps
            checked += s.phase == "play" and s.pending is None
            s = s.apply_code(rng.choice(s.move_codes()))
    assert checked > 50


def test_public_score_hides_other_hands():
    s = state(
        {"a1": "W5", "a2": "S4"},
        visitors={"a1:E": 0, "a2:E": 1},
        hands=[["W1", "W2", "W3"], ["S1", "S2", "S3"]],
    )
    public = s.view(0).public_score()["scores"]
    assert public[0] == {"seat": 0, "visitors": 5, "bonus": 0, "hand": 6, "total": 11}
    assert public[1] == {"seat": 1, "visitors": 4, "bonus": 0, "hand": None, "total": 4}
    assert "winners" not in s.view(0).public_score()
    assert all(x["hand"] is None for x in s.spectator_view().public_score()["scores"])


def test_sample_state_is_a_full_state_behind_the_view():
    s = t.state_from_json(load_example("topiary_moves_3p.json")["position"])
    for seat in (0, 1, None):
        view = s.spectator_view() if seat is None else s.view(seat)
        sample = t.sample_state(view, Rng(seat or 9))
        again = sample.spectator_view() if seat is None else sample.view(seat)
        assert again == view
        if seat == s.to_move:
            assert sample.legal_moves() == s.legal_moves()


def test_samples_keep_the_tiles_a_seat_passed_on_where_the_draft_could_have_sent_them():
    """A passed tile never went face down, nor to a seat later in turn order or still to
    draft: it is with a seat that drafted after the viewer, in flight, or in the box."""
    rng = Rng(4)
    s = t.new_game(t.Options(players=4, draft=True), seed=11, first_player=1)
    order = [1, 2, 3, 0]
    while s.phase == "draft" or s.unplaced[s.to_move] == 5:
        for seat in range(4):
            view = s.view(seat)
            passed = set(view.passed_on[seat] or ()) & set(view.unseen_tiles())
            allowed = {x for x in order[: order.index(seat)] if s.passed_on[x] is not None}
            for sample_seed in range(8):
                sample = t.sample_state(view, Rng(sample_seed))
                assert sample.view(seat) == view
                assert not {x - t.FACE_DOWN for x in sample.garden if x >= t.FACE_DOWN} & passed
                for other in set(range(4)) - allowed:
                    assert not set(sample.hands[other]) & passed
        s = s.apply(rng.choice(s.legal_moves()))


def test_the_bots_determinizations_and_sample_state_are_one_dealer():
    rng = Rng(5)
    s = t.new_game(t.Options(players=3, draft=True), seed=5)
    while s.phase == "draft" or s.unplaced[s.to_move] > 4:
        s = s.apply(rng.choice(s.legal_moves()))
    view = s.view(s.to_move)
    for deal_seed in range(4):
        table = fastplay.Dealer(view).deal(random.Random(deal_seed))
        sample = t.sample_state(view, random.Random(deal_seed))
        assert [sorted(hand) for hand in table.hands] == [list(hand) for hand in sample.hands]
        assert table.garden == list(sample.garden) and sorted(table.box) == list(sample.box)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sight_lines_add_up_to_the_visitor_and_bonus_points_at_every_ply(players):
    rng = Rng(players)
    state = t.new_game(t.Options(players=players), seed=players * 7)
    while True:
        score = state.score()["scores"]
        sights = state.sight_lines()
        for seat in range(players):
            mine = [s["points"] for s in sights if s["seat"] == seat]
            assert sum(mine) == score[seat]["visitors"] + score[seat]["bonus"]
        assert state.spectator_view().sight_lines() == sights
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("players", [2, 4])
def test_a_free_positions_sight_line_is_what_a_visitor_placed_there_sees(players):
    rng = Rng(players + 1)
    state = t.new_game(t.Options(players=players), seed=players * 3)
    while not state.is_over:
        free = [x for x in state.sight_lines(free=True) if x["seat"] is None]
        assert state.sight_lines(free=True)[: -len(free)] == state.sight_lines()
        assert {x["position"] for x in free} == {
            t.POSITIONS[p] for p in state.options.positions if state.visitors[p] < 0
        }
        assert state.view(0).sight_lines(free=True) == state.sight_lines(free=True)
        chosen = rng.choice(free)
        placed = state.apply(chosen["position"])
        (after,) = [x for x in placed.sight_lines() if x["position"] == chosen["position"]]
        assert after == {**chosen, "seat": state.to_move}
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("players", [2, 3])
def test_scoring_hand_tiles_add_up_to_the_hand_points_at_every_ply(players):
    rng = Rng(players + 5)
    state = t.new_game(t.Options(players=players), seed=players)
    while True:
        scoring = state.scoring_hand_tiles()
        for entry in state.score()["scores"]:
            tiles = scoring[entry["seat"]]
            assert set(tiles) <= {t.TILE_NAMES[x] for x in state.hands[entry["seat"]]}
            assert sum(int(name[1]) for name in tiles) == entry["hand"]
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))


def test_sight_line_of_rulebook_example_a_sees_h3_o4_s5():
    """TOPIARY.md example A: H3, face down, O4, H4, S5 from the visitor: sees H3, O4, S5 = 12."""
    garden = [t.FACE_DOWN] * 25
    for cell, tile in zip(
        ("a5", "a4", "a3", "a2", "a1"), ("H3", "p2", "O4", "H4", "S5"), strict=True
    ):
        code = t.TILE_INDEX[tile.upper()]
        garden[t.CELL_INDEX[cell]] = code + t.FACE_DOWN if tile[0].islower() else code
    visitors = [-1] * len(t.POSITIONS)
    visitors[t.POSITION_INDEX["a5:S"]] = 0
    (visitor,) = _sight_lines(tuple(garden), tuple(visitors))
    assert visitor["line"] == ["a5", "a4", "a3", "a2", "a1"]
    assert [s["tile"] for s in visitor["seen"]] == ["H3", "O4", "S5"]
    assert visitor["points"] == 12


# --------------------------------------------------------------------------- a turn in two steps


def taker() -> t.State:
    """Seat 0 to move with W1 face up at c5 and N2 face down at c4; hand R1 W2 P5."""
    return state(
        {"c5": "W1", "c4": "n2", "c3": "R4"},
        visitors={"a1:E": 1},
        hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]],
    )


def test_a_take_step_places_the_visitor_and_puts_the_tile_in_the_takers_hand():
    before = taker()
    pending = before.apply("c5:S c4")
    assert pending.pending_step == "c5:S c4" and before.pending_step is None
    assert pending.to_move == 0 and pending.phase == "play"
    assert pending.unplaced == (7, 7)
    position = pending.to_json()
    assert position["visitors"] == {"a1:E": 1, "c5:S": 0}
    assert position["hands"][0] == ["N2", "P5", "R1", "W2"]
    assert position["garden"][1][2] == "."
    assert position["pending"] == {"position": "c5:S", "cell": "c4", "took": "N2"}
    assert pending.legal_moves() == pending.legal_steps() == ["=*", "=P5", "=R1", "=W2"]
    assert before.took("c5:S c4") == "N2"


@pytest.mark.parametrize("plant", ["=*", "=N2", "=R1", "=W2", "=P5"])
def test_the_plant_step_finishes_the_turn_as_the_whole_move_does(plant):
    before = taker()
    after = before.apply("c5:S c4").apply(plant)
    whole = t.join_steps("c5:S c4", plant, "N2")
    assert whole == ("c5:S c4=*" if plant in ("=*", "=N2") else f"c5:S c4{plant}")
    assert after == before.apply(whole)
    assert after.pending_step is None and after.to_move == 1


def test_a_pending_take_with_the_last_visitor_ends_the_game_only_after_the_plant():
    s = t.new_game(t.Options(players=2), seed=5)
    rng = Rng(5)
    while sum(s.unplaced) > 1:
        s = s.apply(rng.choice(s.legal_moves()))
    take = next(step for step in s.legal_steps() if " " in step)
    pending = s.apply(take)
    assert pending.unplaced == (0, 0) and pending.phase == "play" and not pending.is_over
    assert t.state_from_json(pending.to_json()) == pending
    finished = pending.apply("=*")
    assert finished.is_over and finished == s.apply(f"{take}=*")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("c5:S c4=R1", "plant a tile from your hand in c4 first"),
        ("b5:S", "plant a tile from your hand in c4 first"),
        ("b5:S b4", "plant a tile from your hand in c4 first"),
        ("keep R1 W2 P5", "plant a tile from your hand in c4 first"),
        ("=S1", "S1 is not in your hand"),
        ("=H4", "H4 is not in your hand"),
        ("=X9", "malformed"),
        ("=", "malformed"),
        ("=* =R1", "malformed"),
    ],
)
def test_a_pending_take_accepts_only_a_plant_from_the_hand(move, reason):
    pending = taker().apply("c5:S c4")
    with pytest.raises(IllegalMove, match=reason):
        pending.apply(move)


def test_a_pending_take_is_the_takers_turn_alone():
    pending = taker().apply("c5:S c4")
    with pytest.raises(IllegalMove, match="not your turn, seat 0 is to move"):
        pending.apply("=S1", seat=1)
    assert pending.apply("=R1", seat=0) == taker().apply("c5:S c4=R1")


def test_steps_are_the_first_decisions_of_the_moves():
    """Each take is offered once, place only unless must_pick forbids it."""
    for options in (t.Options(players=3), t.Options(players=2, must_pick=True)):
        s = t.new_game(options, seed=11)
        rng = Rng(11)
        while not s.is_over:
            moves = s.legal_moves()
            assert s.legal_steps() == sorted({m.partition("=")[0] for m in moves})
            assert len(s.step_codes()) == len(s.legal_steps())
            assert s.view(s.to_move).legal_steps() == s.legal_steps()
            s = s.apply(rng.choice(moves))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_played_in_steps_reach_the_states_of_the_whole_moves(players):
    """Random games through the steps: every plant of every pending take is the whole move."""
    options = t.Options(players=players, draft=players == 3)
    s = whole = t.new_game(options, seed=players)
    rng = Rng(players)
    while not s.is_over:
        assert s == whole
        step = rng.choice(s.legal_steps())
        after = s.apply(step)
        if after.pending_step is None:
            assert after == whole.apply(step)
            s = whole = after
            continue
        took = s.took(step)
        assert after.took(after.legal_moves()[0]) is None
        for plant in [*after.legal_moves(), f"={took}"]:
            assert after.apply(plant) == s.apply(t.join_steps(step, plant, took))
        plant = rng.choice(after.legal_moves())
        s = after.apply(plant)
        whole = whole.apply(t.join_steps(step, plant, took))


def test_the_fast_path_plays_steps_too():
    before = taker()
    code = before.code_of("c5:S c4")
    pending = before.apply_code(code)
    assert t.move_name(code) == "c5:S c4" and pending == before.apply("c5:S c4")
    assert sorted(map(t.move_name, pending.move_codes())) == pending.legal_moves()
    assert [child.pending_step for child in pending.children()] == [None] * 4
    assert t.perft(pending, 1) == 4


def test_only_a_pending_take_can_be_planted_and_no_step_in_the_draft():
    with pytest.raises(IllegalMove, match="nothing to plant"):
        taker().apply("=R1")
    draft = t.new_game(t.Options(players=2, draft=True), seed=1)
    with pytest.raises(IllegalMove, match="the draft is on"):
        draft.apply("c5:S c4")
    assert draft.legal_steps() == draft.legal_moves()


def test_join_steps_refuses_what_is_not_a_take_and_a_plant():
    with pytest.raises(IllegalMove, match="not a take step"):
        t.join_steps("c5:S", "=R1", "N2")
    with pytest.raises(IllegalMove, match="not a plant step"):
        t.join_steps("c5:S c4", "c5:S c4=R1", "N2")
    with pytest.raises(NotationError, match="took"):
        t.join_steps("c5:S c4", "=R1", "?")


@pytest.mark.parametrize(
    ("move", "mover", "viewer", "took", "over", "seen"),
    [
        ("keep R3 N4 W1", 0, 1, None, False, "keep"),
        ("keep R3 N4 W1", 0, None, None, False, "keep"),
        ("keep R3 N4 W1", 0, 0, None, False, "keep R3 N4 W1"),
        ("keep R3 N4 W1", 0, 1, None, True, "keep R3 N4 W1"),
        ("c5:S c4=*", 0, 1, "N2", False, "c5:S c4=N2"),
        ("c5:S c4=*", 0, None, "N2", False, "c5:S c4=N2"),
        ("c5:S c4=*", 0, 0, "N2", False, "c5:S c4=*"),
        ("c5:S c4=*", 0, 1, "N2", True, "c5:S c4=*"),
        ("=*", 0, 1, "N2", False, "=N2"),
        ("=*", 0, 0, "N2", False, "=*"),
        ("c5:S c4=R3", 0, 1, "N2", False, "c5:S c4=R3"),
        ("=R3", 0, None, "N2", False, "=R3"),
        ("c5:S c4", 0, 1, "N2", False, "c5:S c4"),
        ("c5:S", 0, 1, None, False, "c5:S"),
    ],
)
def test_move_seen_by_shows_others_only_what_the_table_shows(move, mover, viewer, took, over, seen):
    assert t.move_seen_by(move, mover=mover, viewer=viewer, took=took, over=over) == seen


def test_others_cannot_tell_a_planted_taken_tile_from_a_hand_tile():
    """Plant N2 as the taken tile, or take N2 and plant an N2 from the hand: same text."""
    taken = t.move_seen_by("c5:S c4=*", mover=0, viewer=1, took="N2", over=False)
    from_hand = t.move_seen_by("c5:S c4=N2", mover=0, viewer=1, took="W5", over=False)
    assert taken == from_hand == "c5:S c4=N2"


def test_pending_views_show_the_taken_tile_to_the_taker_only():
    pending = taker().apply("c5:S c4")
    own = pending.view(0)
    assert own.pending_step == "c5:S c4"
    assert own.to_json()["pending"] == {"position": "c5:S", "cell": "c4", "took": "N2"}
    assert own.to_json()["hands"][0] == ["N2", "P5", "R1", "W2"]
    assert own.legal_moves() == own.legal_steps() == ["=*", "=P5", "=R1", "=W2"]
    for other in (pending.view(1), pending.spectator_view()):
        data = other.to_json()
        assert data["pending"] == {"position": "c5:S", "cell": "c4", "took": "?"}
        assert data["hands"][0] == ["?"] * 4 and data["garden"][1][2] == "."
        assert "N2" not in json.dumps(data)
        assert other.legal_moves() == other.legal_steps() == []


def test_which_tile_was_taken_is_hidden_from_everyone_but_the_taker():
    """Two takes of different tiles from the same hand look the same to seat 1."""
    one = taker().apply("c5:S c4")
    other = state(
        {"c5": "W1", "c4": "n3", "c3": "R4", "d1": "n2"},
        visitors={"a1:E": 1},
        hands=[["R1", "W2", "P5"], ["S1", "S2", "S3"]],
    ).apply("c5:S c4")
    assert one.view(1) == other.view(1) and one.spectator_view() == other.spectator_view()
    assert one.view(0) != other.view(0)


def test_scores_and_sight_lines_of_a_pending_take_see_nothing_in_the_gap():
    """c5:S sees W1 at c5, nothing at c4 (gap), R4 at c3: 5 points, no bonus."""
    pending = taker().apply("c5:S c4")
    line = next(x for x in pending.sight_lines() if x["position"] == "c5:S")
    assert [x["cell"] for x in line["seen"]] == ["c5", "c3"] and line["points"] == 5
    assert pending.view(1).sight_lines() == pending.sight_lines()
    assert pending.view(1).public_score()["scores"][0]["visitors"] >= 5
    assert (
        pending.score()["scores"][0]["visitors"]
        == pending.view(0).public_score()["scores"][0]["visitors"]
    )


def test_pending_positions_round_trip_through_json_and_views_sample_back():
    pending = taker().apply("c5:S c4")
    assert t.state_from_json(json.loads(json.dumps(pending.to_json()))) == pending
    for seat in (0, 1, None):
        view = pending.spectator_view() if seat is None else pending.view(seat)
        data = {k: v for k, v in view.to_json().items() if k != "seat"}
        completed, unknown = t.state_from_view_json(data)
        assert completed.pending_step == "c5:S c4"
        if seat == 0:
            assert completed.legal_moves() == pending.legal_moves() and 0 not in unknown
        else:
            assert 0 in unknown
        for sample_seed in range(5):
            sample = t.sample_state(view, Rng(sample_seed))
            assert (sample.spectator_view() if seat is None else sample.view(seat)) == view
            assert sample.pending[2] in sample.hands[0] and len(sample.hands[0]) == 4


def _pending_json(**changes) -> dict:
    data = taker().apply("c5:S c4").to_json()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_pending_json(pending=None), "garden c4: '.' \\(a gap\\) but no take is pending"),
        (
            _pending_json(pending={"position": "c5:S", "cell": "c4"}),
            'pending: expected {"position"',
        ),
        (
            _pending_json(pending={"position": "a1:E", "cell": "a1", "took": "N2"}),
            "must be the mover's",
        ),
        (
            _pending_json(pending={"position": "c5:S", "cell": "b4", "took": "N2"}),
            "not a cell of the sight line",
        ),
        (
            _pending_json(pending={"position": "c5:S", "cell": "c2", "took": "N2"}),
            "must be the only gap",
        ),
        (
            _pending_json(pending={"position": "c5:S", "cell": "c4", "took": "S1"}),
            "pending.took: S1 is not in the hand of seat 0",
        ),
        (_pending_json(hands=[["P5", "R1", "W2"], ["S1", "S2", "S3"]]), "hands\\[0\\]: expected 4"),
        (
            _pending_json(hands=[["N2", "P5", "R1", "W2"], ["S1", "S2", "S3", "S4"]]),
            "hands\\[1\\]: expected 3",
        ),
        (_pending_json(phase="over"), "a take pending in phase 'over'"),
    ],
)
def test_malformed_pending_positions_name_the_field(data, message):
    with pytest.raises(NotationError, match=message):
        t.state_from_json(data)
