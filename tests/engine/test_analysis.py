"""Post-game analysis in the engine: each turn judged from the mover's view alone."""

from __future__ import annotations

import pytest

from engine import analysis, bots, topiary, wizards_garden
from engine.rng import Rng
from engine.topiary import analysis as topiary_analysis

#: A Topiary position with one visitor left each, seat 0 to move. Planting P4 at a1 and
#: looking along a line of low tiles leaves points on the table that e2:W picks up.
LAST_VISITORS = {
    "game": "topiary",
    "options": {"players": 2, "corner_diagonals": True, "must_pick": False,
                "tiebreak": "later", "draft": False},
    "removed_type": "H",
    "garden": [["e2", "P1", "w4", "o4", "e5"], ["w1", "P2", "e3", "e1", "O2"],
               ["W2", "W3", "N4", "P3", "W5"], ["R2", "R4", "E4", "P5", "r1"],
               ["r5", "O5", "s3", "S5", "R3"]],
    "visitors": {"a1:E": 1, "e1:N": 1, "e1:W": 1, "e1:NW": 0, "a2:E": 0, "a3:E": 1, "e3:W": 0,
                 "a4:SE": 0, "e4:SW": 1, "a5:SE": 1, "b5:SE": 0, "b5:S": 0, "d5:S": 0,
                 "e5:S": 1},
    "unplaced": [1, 1],
    "hands": [["O1", "P4", "S2"], ["N1", "N2", "S1"]],
    "to_move": 0,
    "phase": "play",
    "first_player": 0,
    "box": ["N3", "N5", "O3", "S4"],
}  # fmt: skip


def finished_record(module, seed: int) -> dict:
    return bots.play_game(module, ["greedy", "random"], seed=seed).record(module)


def other_deal_behind(view, seed: int) -> topiary.State:
    """Another full state the viewer cannot tell from theirs: the unseen tiles dealt anew."""
    return topiary.sample_state(view, Rng(seed))


def test_what_the_mover_could_not_see_does_not_change_their_analysis():
    record = finished_record(topiary, seed=11)
    states = topiary.replay(record)
    turn = 5
    state = states[turn]
    seat = state.to_move
    played = analysis.turn_views(record)[turn][1]
    other = other_deal_behind(state.view(seat), seed=99)
    # A different game behind the same view: the face-down tiles and the other hand differ...
    assert other.to_json() != state.to_json()
    assert other.view(seat).to_json() == state.view(seat).to_json()
    # ...and the mover's turn is judged the same, number for number.
    mine = analysis.analyse_turn(state.view(seat), played, "game/7", turn)
    theirs = analysis.analyse_turn(other.view(seat), played, "game/7", turn)
    assert mine == theirs
    assert mine["seat"] == seat and mine["played"] == played


def test_a_clearly_losing_move_is_flagged_and_the_best_one_is_not():
    state = topiary.state_from_json(LAST_VISITORS)
    view = state.view(0)
    blunder = analysis.analyse_turn(view, "a1:N a1=P4", "game/1", 12)
    assert blunder["lost"] >= 8
    assert blunder["best"] != "a1:N a1=P4"
    assert blunder["best_points"] - blunder["played_points"] == pytest.approx(blunder["lost"])
    # The loss is many times its sampling error.
    assert blunder["lost"] > 10 * blunder["se"]
    good = analysis.analyse_turn(view, blunder["best"], "game/1", 12)
    assert good["lost"] == 0 and good["best"] == blunder["best"]


def test_an_analysis_is_the_same_every_time_and_covers_every_turn(monkeypatch):
    # Fewer deals per turn than the site's: sameness and coverage do not hang on how many
    # (every deal is drawn from the turn's seed either way), and twice the whole game at
    # the full count is most of a minute.
    monkeypatch.setattr(topiary_analysis, "SAMPLES", 64)
    record = finished_record(topiary, seed=4)
    first = analysis.analyse_record(record, seed="game/3")
    assert analysis.analyse_record(record, seed="game/3") == first
    assert len(first["turns"]) == len(record["moves"])
    moves = [m if isinstance(m, str) else m["move"] for m in record["moves"]]
    assert [turn["played"] for turn in first["turns"]] == moves
    for seat_total in first["players"]:
        mine = [t for t in first["turns"] if t["seat"] == seat_total["seat"]]
        assert seat_total["moves"] == len(mine)
        assert seat_total["lost"] == pytest.approx(sum(t["lost"] for t in mine), abs=0.01)
        assert 0 <= seat_total["accuracy"] <= 100


def test_progress_is_reported_after_every_turn():
    record = finished_record(wizards_garden, seed=2)
    seen = []
    analysis.analyse_record(
        record, seed="g", progress=lambda done, total: seen.append((done, total))
    )
    total = len(record["moves"])
    assert seen == [(done, total) for done in range(1, total + 1)]


def test_wizards_garden_moves_get_the_search_value_of_every_legal_move():
    record = finished_record(wizards_garden, seed=6)
    result = analysis.analyse_record(record, seed="game/5")
    turns = result["turns"]
    assert all(t["candidates"] >= 1 and t["se"] is None for t in turns)
    assert all(t["lost"] == pytest.approx(t["best_points"] - t["played_points"]) for t in turns)
    # The greedy seat (0) loses less than the random one.
    by_seat = {entry["seat"]: entry for entry in result["players"]}
    assert by_seat[0]["lost"] < by_seat[1]["lost"]


def test_draft_turns_are_left_unanalysed():
    state = topiary.new_game(topiary.Options(draft=True), seed=3)
    seat = state.to_move
    keep = state.legal_moves()[0]
    assert analysis.analyse_turn(state.view(seat), keep, "g", 0) is None
    assert analysis.seat_totals([None], 2) == [
        {"seat": 0, "moves": 0, "lost": 0.0, "accuracy": None},
        {"seat": 1, "moves": 0, "lost": 0.0, "accuracy": None},
    ]
