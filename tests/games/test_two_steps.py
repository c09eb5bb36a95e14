"""A Topiary turn with a take, as at the table: take and look, then plant (two plies)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.games import game_module
from games import selectors, services
from games.history_selectors import replay_frames
from games.models import Game
from games.services import Refused
from tests.games.conftest import live_game

pytestmark = pytest.mark.django_db


def refused(code: str, call, **kwargs) -> Refused:
    with pytest.raises(Refused) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.reason
    return info.value


def frame_of(game: Game, user) -> dict:
    return selectors.game_state_for(game.pk, user)


def a_take_step(frame: dict) -> str:
    """The first take step (place and take) the viewer is offered."""
    return next(step for step in frame["legal_steps"] if is_take(step))


def is_take(step: str) -> bool:
    return ":" in step and " " in step and "=" not in step


@pytest.fixture
def two(make_player):
    ann, bob = make_player(), make_player()
    return ann, bob, live_game([ann, bob], first_player=0)


def test_a_take_is_two_plies_and_only_the_taker_sees_the_tile(two, make_player):
    ann, bob, game = two
    step = a_take_step(frame_of(game, ann))
    services.move_play(game_id=game.pk, user=ann, ply=0, move=step)
    game.refresh_from_db()
    took = game.moves[0]["took"]
    assert game.ply == 1 and game.moves == [{"seat": 0, "move": step, "took": took}]

    mine, theirs, public = frame_of(game, ann), frame_of(game, bob), frame_of(game, None)
    position, cell = step.split(" ")
    assert mine["to_move"] == theirs["to_move"] == 0
    assert mine["pending"] == {"seat": 0, "position": position, "cell": cell, "took": took}
    assert theirs["pending"]["took"] == public["pending"]["took"] == "?"
    assert took in mine["position"]["hands"][0] and len(mine["position"]["hands"][0]) == 4
    assert theirs["position"]["hands"][0] == ["?"] * 4
    assert mine["legal_moves"] == mine["legal_steps"] and "=*" in mine["legal_steps"]
    assert all(step.startswith("=") for step in mine["legal_steps"])
    assert len(mine["legal_steps"]) == 4
    assert mine["moves"] == [{"seat": 0, "move": step, "took": took}]
    assert theirs["moves"] == public["moves"] == [{"seat": 0, "move": step, "took": None}]
    assert theirs["legal_steps"] == theirs["legal_moves"] == []

    before = (game.ply, game.state)
    refused("not_your_turn", services.move_play, game_id=game.pk, user=bob, ply=1, move="=*")
    refused("duplicate", services.move_play, game_id=game.pk, user=ann, ply=0, move=step)
    refused("illegal", services.move_play, game_id=game.pk, user=ann, ply=1, move="a1:N")
    refused("stale", services.move_play, game_id=game.pk, user=ann, ply=0, move="=*")
    game.refresh_from_db()
    assert (game.ply, game.state) == before

    services.move_play(game_id=game.pk, user=ann, ply=1, move="=*")
    game.refresh_from_db()
    assert game.ply == 2 and game.moves[1] == {"seat": 0, "move": "=*", "took": took}
    mine, theirs = frame_of(game, ann), frame_of(game, bob)
    assert mine["pending"] is None and theirs["to_move"] == 1 and theirs["legal_steps"]
    assert [entry["move"] for entry in mine["moves"]] == [step, "=*"]
    # Planted face up, the tile is public; the taker's "=*" reads as the tile to others.
    assert [entry["move"] for entry in theirs["moves"]] == [step, f"={took}"]
    assert game.turns() == [{"seat": 0, "move": f"{step}=*", "took": took}]


def test_a_whole_move_is_still_one_ply(two):
    ann, bob, game = two
    whole = next(move for move in frame_of(game, ann)["legal_moves"] if "=" in move)
    services.move_play(game_id=game.pk, user=ann, ply=0, move=whole)
    game.refresh_from_db()
    assert game.ply == 1 and frame_of(game, bob)["legal_steps"]
    assert frame_of(game, ann)["pending"] is None
    took = game.moves[0]["took"]
    assert took
    seen = frame_of(game, bob)["moves"][0]["move"]
    expected = whole.replace("=*", f"={took}")
    assert seen == expected and took not in seen.split("=")[0]


def test_the_clock_runs_through_both_steps_and_the_increment_comes_once(two):
    ann, bob, game = two
    ten_seconds_ago = game.turn_started_at - timedelta(seconds=10)
    Game.objects.filter(pk=game.pk).update(turn_started_at=ten_seconds_ago)
    game.refresh_from_db()
    deadline = game.deadline
    services.move_play(game_id=game.pk, user=ann, ply=0, move=a_take_step(frame_of(game, ann)))
    game.refresh_from_db()
    seat = game.seats.get(index=0)
    assert seat.clock_ms == 300_000 and game.turn_started_at == ten_seconds_ago
    assert game.deadline == deadline
    clocks = frame_of(game, bob)["clocks"]
    assert clocks["running"] == 0 and clocks["ms"][0] <= 290_000

    services.move_play(game_id=game.pk, user=ann, ply=1, move="=*")
    seat.refresh_from_db()
    # The whole turn (10 s and more) is spent, the 3 s increment added once.
    assert 250_000 < seat.clock_ms <= 300_000 - 10_000 + 3_000
    assert frame_of(game, bob)["clocks"]["running"] == 1


def test_two_players_the_clock_running_out_while_a_take_is_pending_ends_the_game(two):
    ann, bob, game = two
    step = a_take_step(frame_of(game, ann))
    services.move_play(game_id=game.pk, user=ann, ply=0, move=step)
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - timedelta(seconds=1),
        turn_started_at=timezone.now() - timedelta(seconds=301),
    )
    refused("out_of_time", services.move_play, game_id=game.pk, user=ann, ply=1, move="=*")
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    assert game.termination == "time" and game.result["ranks"] == [2, 1]
    # The unfinished turn is left out of the record; the end shows the game before it.
    assert game.record["moves"] == [] and game.state["pending"]
    final = frame_of(game, bob)["final"]
    assert final["position"] == game_module("topiary").replay(game.record)[-1].to_json()
    assert final["moves"] == [] and "pending" not in final["position"]


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_of_steps_and_whole_moves_records_whole_moves_and_replays_every_step(
    make_player, players
):
    users = [make_player() for _ in range(players)]
    game = live_game(users, first_player=0, options={"draft": players == 3})
    takes = 0
    while game.status == Game.Status.ACTIVE:
        to_move = frame_of(game, None)["to_move"]
        frame = frame_of(game, users[to_move])
        steps = frame["legal_steps"]
        if frame["pending"]:
            move = steps[frame["ply"] % len(steps)]
        elif frame["ply"] % 3 and any(is_take(s) for s in steps):
            move, takes = a_take_step(frame), takes + 1
        else:
            move = frame["legal_moves"][frame["ply"] % len(frame["legal_moves"])]
        services.move_play(game_id=game.pk, user=users[to_move], ply=frame["ply"], move=move)
        game.refresh_from_db()
    assert takes and game.termination == "normal"
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    turns = game.turns()
    assert len(game.moves) == len(turns) + takes
    recorded = [
        entry if isinstance(entry, str) else entry["move"] for entry in game.record["moves"]
    ]
    assert recorded == [turn["move"] for turn in turns]
    assert not any(move.startswith("=") for move in recorded)
    states = game_module("topiary").replay(game.record)
    assert states[-1].is_over and game.result["scores"] == states[-1].score()["scores"]
    frames = replay_frames(game.record)["frames"]
    taken = sum(bool(isinstance(e, dict) and e.get("took")) for e in game.record["moves"])
    assert len(frames) == 1 + len(turns) + taken
    assert [f["step"] for f in frames].count("take") == taken
    first_take = next(f for f in frames if f["step"] == "take")
    assert "." in {cell for row in first_take["position"]["garden"] for cell in row}

    # Over: every move as played, the final position and its count for everyone.
    public = frame_of(game, None)
    assert public["moves"] == [
        {"seat": e["seat"], "move": e["move"], "took": e["took"]} for e in game.moves
    ]
    final = public["final"]
    assert final["position"] == game.state and final["moves"] == turns
    assert final["scores"] == states[-1].score()["scores"]
    assert {line["seat"] for line in final["sight_lines"]} == set(range(players))
    assert sum(line["points"] for line in final["sight_lines"]) == sum(
        score["visitors"] + score["bonus"] for score in final["scores"]
    )


def test_a_running_game_has_no_final_and_shows_the_removed_type(two):
    ann, _, game = two
    assert frame_of(game, ann)["final"] is None and frame_of(game, None)["final"] is None
    assert frame_of(game, None)["position"]["removed_type"] == game.state["removed_type"]
    assert game.state["removed_type"] in "EHNOPRSW"


def test_frames_carry_what_each_visitor_sees_and_the_mover_what_free_positions_would(two):
    ann, bob, game = two
    step = a_take_step(frame_of(game, ann))
    services.move_play(game_id=game.pk, user=ann, ply=0, move=step)
    game.refresh_from_db()
    state = game.engine_state()
    placed = state.sight_lines()
    position, cell = step.split(" ")
    assert [line["position"] for line in placed] == [position]
    # The gap of the pending take is seen by nobody, in every viewer's frame.
    assert cell not in {seen["cell"] for seen in placed[0]["seen"]}
    mine, theirs, public = frame_of(game, ann), frame_of(game, bob), frame_of(game, None)
    assert theirs["sight_lines"] == public["sight_lines"] == placed
    # Planting is ann's turn, not placing: no free position is offered.
    assert mine["sight_lines"] == placed

    services.move_play(game_id=game.pk, user=ann, ply=1, move="=*")
    game.refresh_from_db()
    mine, theirs = frame_of(game, ann), frame_of(game, bob)
    free = [line for line in theirs["sight_lines"] if line["seat"] is None]
    assert mine["sight_lines"] == game.engine_state().sight_lines()
    assert theirs["sight_lines"] == mine["sight_lines"] + free
    assert {line["position"] for line in free} == {
        step.split(" ")[0] for step in theirs["legal_steps"]
    }


def test_the_final_count_names_the_hand_tiles_that_score(make_player):
    users = [make_player() for _ in range(2)]
    game = live_game(users, first_player=0)
    while game.status == Game.Status.ACTIVE:
        frame = frame_of(game, users[frame_of(game, None)["to_move"]])
        move = frame["legal_moves"][frame["ply"] * 7 % len(frame["legal_moves"])]
        services.move_play(game_id=game.pk, user=users[frame["you"]], ply=frame["ply"], move=move)
        game.refresh_from_db()
    final = frame_of(game, None)["final"]
    for entry, tiles in zip(final["scores"], final["scoring_hand_tiles"], strict=True):
        assert set(tiles) <= set(final["position"]["hands"][entry["seat"]])
        assert sum(int(tile[1]) for tile in tiles) == entry["hand"]
