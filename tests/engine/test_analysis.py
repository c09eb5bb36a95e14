"""Post-game analysis in the engine: each turn judged from the mover's view alone."""

from __future__ import annotations

import pytest

from engine import analysis, bots, topiary, wizards_garden
from engine.rng import Rng
from engine.topiary import analysis as topiary_analysis
from engine.topiary import fastplay

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
    view, played, plant_view = analysis.turn_views(record)[turn]
    assert plant_view is not None  # a take: two decisions, each from its own view
    other = other_deal_behind(view, seed=99)
    # A different game behind the same view: the face-down tiles and the other hand differ...
    assert other.to_json() != state.to_json()
    assert other.view(seat).to_json() == view.to_json()
    # ...and the mover's first step is judged the same, number for number.
    mine = analysis.analyse_turn(view, played, "game/7", turn)
    theirs = analysis.analyse_turn(other.view(seat), played, "game/7", turn)
    assert mine == theirs
    assert mine["seat"] == seat and mine["played"] == played.split("=")[0]
    # So is the plant, from the view with the taken tile seen, whatever else lies hidden.
    behind = other_deal_behind(plant_view, seed=98)
    assert behind.to_json() != states[turn].apply(mine["played"]).to_json()
    assert behind.view(seat).to_json() == plant_view.to_json()
    mine = analysis.analyse_turn(view, played, "game/7", turn, plant_view)
    theirs = analysis.analyse_turn(view, played, "game/7", turn, behind.view(seat))
    assert mine == theirs and mine["plant"]["played"] == played


def test_a_take_worse_in_expectation_is_marked_whatever_tile_it_turned_up():
    state = topiary.state_from_json(LAST_VISITORS)
    view = state.view(0)
    # Taking the face-down a1 and looking along it scores little whatever the tile is.
    taken = state.apply("a1:N a1").view(0)
    verdict = analysis.analyse_turn(view, "a1:N a1=P4", "game/1", 12, taken)
    assert verdict["played"] == "a1:N a1" and verdict["best"] != "a1:N a1"
    assert verdict["lost"] >= 5 and verdict["lost"] > 10 * verdict["se"]
    difference = verdict["best_points"] - verdict["played_points"]
    assert difference == pytest.approx(verdict["lost"], abs=0.01)
    # Planting P4 there, rather than the tile taken, gives e2:W's line away on top.
    plant = verdict["plant"]
    assert plant["played"] == "a1:N a1=P4" and plant["best"] != plant["played"]
    assert plant["lost"] >= 8 and plant["lost"] > 10 * plant["se"]
    # Another tile under a1 (hindsight): the take is judged the same, the plant is not.
    for seed in range(100):
        other = other_deal_behind(view, seed)
        if other.garden[0] != state.garden[0]:
            break
    lucky = analysis.analyse_turn(view, "a1:N a1=P4", "game/1", 12, other.apply("a1:N a1").view(0))
    assert {k: v for k, v in lucky.items() if k != "plant"} == {
        k: v for k, v in verdict.items() if k != "plant"
    }
    assert lucky["plant"] != plant
    totals = analysis.seat_totals([verdict], 2)[0]
    assert totals["moves"] == 2
    assert totals["lost"] == pytest.approx(verdict["lost"] + plant["lost"], abs=0.01)


def test_a_take_planted_best_for_the_tile_seen_loses_nothing():
    state = topiary.state_from_json(LAST_VISITORS)
    view = state.view(0)
    step = analysis.analyse_turn(view, "a1:N", "game/1", 12)["best"]
    assert " " in step  # the engine's best first step here is a take
    plant_view = state.apply(step).view(0)
    best_plant = analysis.analyse_turn(view, f"{step}=*", "game/1", 12, plant_view)["plant"]
    played = best_plant["best"]
    verdict = analysis.analyse_turn(view, played, "game/1", 12, plant_view)
    assert verdict["played"] == verdict["best"] == step and verdict["lost"] == 0
    assert verdict["plant"]["played"] == verdict["plant"]["best"] == played
    assert verdict["plant"]["lost"] == 0
    assert analysis.seat_totals([verdict], 2)[0] == {
        "seat": 0,
        "moves": 2,
        "lost": 0.0,
        "accuracy": 100,
    }


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
    assert [turn["played"] for turn in first["turns"]] == [m.split("=")[0] for m in moves]
    takes = [turn["plant"]["played"] for turn in first["turns"] if "plant" in turn]
    assert takes == [m for m in moves if "=" in m] and takes
    for seat_total in first["players"]:
        mine = [
            decision
            for t in first["turns"]
            for decision in (t, t.get("plant"))
            if decision and t["seat"] == seat_total["seat"]
        ]
        assert seat_total["moves"] == len(mine)
        assert seat_total["lost"] == pytest.approx(sum(d["lost"] for d in mine), abs=0.01)
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


def test_the_compiled_playouts_judge_as_the_reference_does(monkeypatch):
    # Built by `make venv`: the analysis uses it, and must give the reference's numbers.
    assert fastplay.compiled is not None
    monkeypatch.setattr(topiary_analysis, "SAMPLES", 48)
    state = topiary.state_from_json(LAST_VISITORS)
    view, plant_view = state.view(0), state.apply("c5:S c4").view(0)
    compiled = analysis.analyse_turn(view, "c5:S c4=O1", "game/2", 12, plant_view)
    monkeypatch.setattr(fastplay, "compiled", None)
    assert analysis.analyse_turn(view, "c5:S c4=O1", "game/2", 12, plant_view) == compiled
