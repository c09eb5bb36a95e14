"""Mined training puzzles (issue 44): themes by rule, proofs against brute force, self-play
reproducible from its seed, the committed pool regenerated, the CLI re-checking a puzzle."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from engine import mining, topiary
from engine import wizards_garden as wg
from engine.topiary import mining as topiary_mining
from engine.topiary.positions import topiary_position
from engine.wizards_garden import puzzles as garden_puzzles
from tests.engine.cli import engine
from tests.support.puzzle_brute import garden_brute, topiary_brute

POOL = Path(__file__).resolve().parents[2] / "puzzles" / "data"

#: Seat 1 has placed all its visitors where they see rows 2-5; seat 0's placed visitors see
#: single corner cells, so the lines below change only what the tests look at.
SEAT1 = ["a3:E", "a4:E", "a5:E", "e3:W", "e4:W", "e5:W", "e2:W", "a4:NE"]
SEAT0 = ["a1:SE", "a1:NW", "e1:NE", "e1:SW", "a5:NE", "a5:SW", "e5:SE"]
GARDEN = {
    # Rank 1: R1, a face-down R2, H4, a face-down S4, O5.
    "a1": "R1",
    "b1": "r2",
    "c1": "H4",
    "d1": "s4",
    "e1": "O5",
    # Rank 2 as seat 1's e2:W sees it: P1, a face-down W5, P5.
    "e2": "P1",
    "d2": "w5",
    "c2": "P5",
}


def hand_built(k: int = 1) -> topiary.State:
    """A 2-player puzzle position: seat 0 to move with ``k`` visitors left."""
    mine = SEAT0[: 8 - k]
    visitors = {**dict.fromkeys(SEAT1, 1), **dict.fromkeys(mine, 0)}
    position = topiary_position(
        GARDEN, visitors=visitors, hands=[["S1", "H2", "N1"], ["O1", "O2", "O3"]]
    )
    return topiary.state_from_json(position)


@pytest.mark.parametrize(
    ("line", "present", "absent"),
    [
        # Turning R2 face up next to R1: a type bonus; no take of a hand tile.
        (["a1:E b1=*"], {"type-bonus"}, {"place-only", "take-and-plant"}),
        # A plain placement: nothing taken, no bonus made.
        (["a1:E"], {"place-only"}, {"type-bonus", "take-and-plant", "blocking"}),
        # S4 face up makes the S1 in hand score.
        (["d1:N d1=*"], {"hand-points"}, {"take-and-plant", "blocking"}),
        # Planting H2 instead keeps S4 in hand, where it justifies nothing.
        (["d1:N d1=H2"], {"take-and-plant"}, {"hand-points", "place-only"}),
        # W5 face up between P1 and P5 hides P5 from seat 1's visitor at e2.
        (["d1:N d2=*"], {"blocking"}, {"place-only"}),
        (["d1:N"], {"place-only"}, {"blocking"}),
    ],
)
def test_topiary_themes_follow_their_rules(line, present, absent):
    tagged = set(topiary_mining.themes(hand_built(), line))
    assert present <= tagged
    assert not absent & tagged


def test_topiary_long_theme_is_three_turns_or_more():
    assert "long" in topiary_mining.themes(hand_built(3), ["a1:E", "b1:N", "c1:N"])
    assert "long" not in topiary_mining.themes(hand_built(2), ["a1:E", "b1:N"])
    assert "long" not in topiary_mining.themes(hand_built(1), ["a1:E"])


def garden(rows: list[str], **fields) -> wg.State:
    """A Wizards' Garden position in play, rows from rank 4 down to rank 1."""
    harvested = fields.get("harvested", [{"W": 0, "B": 0}, {"W": 0, "B": 0}])
    flowers = sum(seat["W"] + seat["B"] for seat in harvested)
    data = {
        **wg.new_game(seed=1).to_json(),
        "board": [list(row) for row in rows],
        "basket": 20 - flowers - sum(row.count("W") + row.count("B") for row in rows),
        "phase": "play",
        "to_move": 0,
        **fields,
    }
    return wg.state_from_json(data)


def test_garden_themes_follow_their_rules():
    # c1 W flips b1 and d1 to white: row 1 is four white seeds.
    white = garden(["...B", "....", "....", "WB.B"])
    assert garden_puzzles.themes(white, ["c1W"]) == ("harvest",)
    # c1 B makes four black: a harvest that wins the staff.
    black = garden(["...W", "....", "....", "BW.W"])
    assert garden_puzzles.themes(black, ["c1B"]) == ("harvest", "staff")
    # Holding the staff already: harvesting black again does not win it.
    held = garden(
        ["...W", "....", "....", "BW.W"], staff=0, harvested=[{"W": 0, "B": 1}, {"W": 0, "B": 0}]
    )
    assert "staff" not in garden_puzzles.themes(held, ["c1B"])
    # c1 W also flips c2: rows 1 and 2 both full, two lines in one planting.
    double = garden(["....", "....", "WWBW", "WB.B"])
    assert garden_puzzles.themes(double, ["c1W"]) == ("harvest", "double-harvest")
    # Planting next to nothing that completes a line: no theme.
    assert garden_puzzles.themes(white, ["a2W"]) == ()


#: The committed pool's seeds and the Topiary run's table sizes (docs/PUZZLES_SEED.md, 10).
TOPIARY_SEED, GARDEN_SEED = "topiary-pool-1", "wizards-garden-pool-1"
TOPIARY_SEATS = (4, 2, 2)


@pytest.fixture(scope="module")
def topiary_self_play():
    """Self-play game 1 of the Topiary pool's seed, mined: its record and puzzles."""
    record = mining.self_play("topiary", TOPIARY_SEED, 1, TOPIARY_SEATS)
    return record, list(mining.mine_record(record))


def test_self_play_is_the_same_game_and_puzzles_for_a_seed(topiary_self_play):
    record, puzzles = topiary_self_play
    assert mining.self_play("topiary", TOPIARY_SEED, 1, TOPIARY_SEATS) == record
    assert mining.self_play("topiary", "other-seed", 1)["initial"] != record["initial"]
    assert len(mining.self_play("topiary", TOPIARY_SEED, 3, TOPIARY_SEATS)["players"]) == 4
    again = mining.mine_self_play("topiary", TOPIARY_SEED, 1, seats=TOPIARY_SEATS)
    assert [p.to_json() for p in again] == [p.to_json() for p in puzzles]
    # A run restricted to some depths keeps exactly those puzzles.
    ones = mining.mine_self_play("topiary", TOPIARY_SEED, 1, seats=TOPIARY_SEATS, depths=(1,))
    assert [p.to_json() for p in ones] == [p.to_json() for p in puzzles if p.k == 1]


def test_mined_topiary_puzzles_are_proven_and_beat_what_was_played(topiary_self_play):
    _, puzzles = topiary_self_play
    assert puzzles
    for puzzle in puzzles:
        state = topiary.state_from_json(puzzle.position)
        assert (state.to_move, state.unplaced[state.to_move]) == (puzzle.seat, puzzle.k)
        assert all(not state.unplaced[s] for s in range(state.players) if s != puzzle.seat)
        # The stored line replays through the rules to the optimum.
        final = state
        for move in puzzle.line:
            final = final.apply(move)
        assert final.totals()[puzzle.seat] == puzzle.optimum
        assert puzzle.optimum - puzzle.played >= topiary_mining.MIN_PLAYED_GAP
        assert len(puzzle.optimal_first_moves) <= 2 * puzzle.k
        if puzzle.k == 1:
            # One turn: the brute force is cheap, so every K = 1 puzzle is re-proven here.
            assert topiary_brute(puzzle.position) == (
                puzzle.optimum,
                set(puzzle.optimal_first_moves),
            )
        else:
            assert puzzle.optimum - puzzle.greedy >= 2


def test_garden_puzzles_match_brute_force_at_small_depth():
    record = mining.self_play("wizards_garden", "test-seed", 0)
    states = wg.replay(record)
    checked = 0
    for state in states[len(states) // 2 :: 5]:
        if state.phase != "play":
            continue
        for k in (1, 2):
            solution = garden_puzzles.solve(state, k)
            optimum, first = garden_brute(state.to_json(), k)
            assert (solution.optimum, set(solution.first_moves)) == (optimum, first)
            assert garden_puzzles.grade(state.to_json(), k, list(solution.line[::2])) == optimum
            checked += 1
    assert checked >= 4


def pool_lines(name: str) -> list[dict]:
    with gzip.open(POOL / name, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_the_committed_topiary_pool_regenerates_from_its_seed(topiary_self_play):
    _, puzzles = topiary_self_play
    stored = [
        line
        for line in pool_lines("topiary-selfplay.jsonl.gz")
        if line["seed"] == f"{TOPIARY_SEED}/1"
    ]
    assert stored == [{**p.to_json(), "seed": f"{TOPIARY_SEED}/1"} for p in puzzles]


def test_the_committed_garden_pool_regenerates_from_its_seed():
    """Each stored puzzle of game 1 is that game's position at its ply, proven again to
    the same figures (re-mining every candidate of a garden game takes much longer)."""
    states = wg.replay(mining.self_play("wizards_garden", GARDEN_SEED, 1))
    stored = [
        line
        for line in pool_lines("wizards-garden-selfplay.jsonl.gz")
        if line["seed"] == f"{GARDEN_SEED}/1"
    ]
    assert stored
    for line in stored:
        state = states[line["source_ply"]]
        assert state.to_json() == line["position"] and state.to_move == line["seat"]
        solution = garden_puzzles.solve(state, line["k"], max_nodes=garden_puzzles.MAX_NODES)
        assert solution.to_json() | {
            "themes": list(garden_puzzles.themes(state, solution.line))
        } == {
            "optimum": line["optimum"],
            "line": line["line"],
            "optimal_first_moves": len(line["optimal_first_moves"]),
            "first_moves": line["optimal_first_moves"],
            "greedy": line["greedy"],
            "legal_first_moves": line["legal_first_moves"],
            "nodes": line["nodes"],
            "themes": line["themes"],
        }


def test_the_cli_re_checks_a_stored_puzzle(tmp_path):
    line = pool_lines("wizards-garden-selfplay.jsonl.gz")[0]
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(line))
    result = engine("wizards-garden", "solve", str(path))
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["optimum"] == line["optimum"]
    assert printed["first_moves"] == line["optimal_first_moves"]
    assert printed["nodes"] == line["nodes"]
    topiary_line = pool_lines("topiary-selfplay.jsonl.gz")[0]
    checked = engine("topiary", "solve", stdin=json.dumps(topiary_line))
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout) | {"line": None} == {
        "optimum": topiary_line["optimum"],
        "line": None,
        "optimal_first_moves": len(topiary_line["optimal_first_moves"]),
        "greedy": topiary_line["greedy"],
    }
    missing_k = engine("wizards-garden", "solve", stdin=json.dumps({"position": line["position"]}))
    assert missing_k.returncode == 2 and "k" in missing_k.stderr


def test_a_game_that_ended_early_is_not_mined(topiary_self_play):
    record, _ = topiary_self_play
    states = topiary.replay(record)
    cut = topiary.make_record(
        states[0],
        [e if isinstance(e, str) else e["move"] for e in record["moves"][:-3]],
        seed=record["seed"],
        names=record["players"],
    )
    assert list(mining.mine_record(cut)) == []
