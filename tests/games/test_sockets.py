"""The game socket: views per seat, refusals with reasons, reconnect and resync, no leaks."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from engine.games import game_module
from games import services
from games.models import Game, Seat
from tests.games.conftest import live_game
from tests.games.sockets import (
    KNOWN_FACE_DOWN,
    TILE,
    Socket,
    hidden_from,
    in_own_loop,
    latest_state,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def redis_layer(redis_url):
    return redis_url


@pytest.fixture
def pair(make_player, redis_layer):
    ann, bob = make_player(), make_player()
    return ann, bob, live_game([ann, bob], first_player=0)


def is_state(ply: int):
    return lambda frame: frame["type"] in ("state", "move") and frame["ply"] == ply


def refusal(frame) -> bool:
    return frame["type"] == "refused"


async def ply_of(game: Game) -> int:
    await database_sync_to_async(game.refresh_from_db)()
    return game.ply


@in_own_loop
async def test_each_player_gets_their_own_view_and_spectators_the_public_one(pair):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    ann_socket, bob_socket, watcher = [await Socket.open(path, u) for u in (ann, bob, None)]
    ann_view, bob_view, public = [
        await s.until(is_state(0)) for s in (ann_socket, bob_socket, watcher)
    ]
    assert ann_view["you"] == 0 and "?" not in ann_view["position"]["hands"][0]
    assert ann_view["position"]["hands"][1] == ["?", "?", "?"]
    assert bob_view["you"] == 1 and bob_view["position"]["hands"][0] == ["?", "?", "?"]
    assert public["you"] is None and public["legal_moves"] == []
    assert all(hand == ["?", "?", "?"] for hand in public["position"]["hands"])
    assert ann_view["legal_moves"] and bob_view["legal_moves"] == []
    for socket in (ann_socket, bob_socket, watcher):
        await socket.close()


@in_own_loop
async def test_every_refusal_comes_back_with_a_reason_and_changes_nothing(pair, make_player):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    ann_socket, bob_socket, watcher = [await Socket.open(path, u) for u in (ann, bob, None)]
    first = await ann_socket.until(is_state(0))
    move = first["legal_moves"][0]

    await bob_socket.send({"type": "move", "ply": 0, "move": move})
    assert (await bob_socket.until(refusal))["code"] == "not_your_turn"
    await ann_socket.send({"type": "move", "ply": 0, "move": "a1:Q"})
    illegal = await ann_socket.until(refusal)
    assert illegal["code"] == "illegal" and illegal["reason"] and illegal["ply"] == 0
    await ann_socket.send({"type": "move", "ply": 3, "move": move})
    assert (await ann_socket.until(refusal))["code"] == "stale"
    await watcher.send({"type": "move", "ply": 0, "move": move})
    assert (await watcher.until(refusal))["code"] == "not_seated"
    await ann_socket.comm.send_to(text_data="{not json")
    assert (await ann_socket.until(refusal))["code"] == "bad_request"
    await ann_socket.send({"type": "teleport"})
    assert (await ann_socket.until(refusal))["code"] == "bad_request"
    assert await ply_of(game) == 0

    await ann_socket.send({"type": "move", "ply": 0, "move": move})
    moved = await bob_socket.until(is_state(1))
    assert moved["type"] == "move" and moved["move"] == {"seat": 0, "move": move, "took": None}
    await ann_socket.send({"type": "move", "ply": 0, "move": move})
    duplicate = await ann_socket.until(refusal)
    assert duplicate["code"] == "duplicate" and duplicate["ply"] == 1
    assert await ply_of(game) == 1

    await bob_socket.send({"type": "resign"})
    await ann_socket.until(lambda f: f["type"] == "state" and f["status"] == "finished")
    await ann_socket.send({"type": "move", "ply": 1, "move": move})
    assert (await ann_socket.until(refusal))["code"] == "finished"
    for socket in (ann_socket, bob_socket, watcher):
        await socket.close()


@in_own_loop
async def test_a_player_who_drops_comes_back_to_the_current_state_and_plays_on(pair):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    ann_socket = await Socket.open(path, ann)
    first = await ann_socket.until(is_state(0))
    await ann_socket.close()

    await database_sync_to_async(services.move_play)(
        game_id=game.pk, user=ann, ply=0, move=first["legal_moves"][0]
    )
    bob_socket = await Socket.open(path, bob)
    bob_turn = await bob_socket.until(is_state(1))
    await bob_socket.send({"type": "move", "ply": 1, "move": bob_turn["legal_moves"][-1]})
    await bob_socket.until(is_state(2))

    back = await Socket.open(path, ann)
    resumed = await back.until(lambda f: f["type"] == "state")
    assert resumed["ply"] == 2 and len(resumed["moves"]) == 2 and resumed["legal_moves"]
    await back.send({"type": "resync"})
    assert (await back.until(lambda f: f["type"] == "state"))["ply"] == 2
    await back.send({"type": "move", "ply": 2, "move": resumed["legal_moves"][0]})
    assert (await bob_socket.until(is_state(3)))["type"] == "move"
    for socket in (back, bob_socket):
        await socket.close()


@in_own_loop
async def test_a_missing_game_closes_the_socket(redis_layer):
    from channels.testing import WebsocketCommunicator

    from topiary_site.asgi import application

    comm = WebsocketCommunicator(
        application, "/ws/game/999999/", headers=[(b"origin", b"http://testserver")]
    )
    # Accepted, then closed: a close before the handshake would reach the client as HTTP 403.
    connected, _ = await comm.connect(timeout=10)
    assert connected
    assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect(timeout=10)


def take_first(moves: list[str], ply: int) -> str:
    """Prefer a move that takes a hidden tile, so hands and the garden really change."""
    takes = [move for move in moves if "=" in move]
    pool = takes or moves
    return pool[(ply * 7) % len(pool)]


@pytest.mark.parametrize("players", [2, 3])
@in_own_loop
async def test_no_frame_of_a_whole_game_holds_hidden_identity(make_player, redis_layer, players):
    users = [await database_sync_to_async(make_player)() for _ in range(players)]
    game = await database_sync_to_async(live_game)(users)
    path = f"/ws/game/{game.pk}/"
    sockets = [await Socket.open(path, u) for u in users] + [await Socket.open(path, None)]
    latest = [await s.until(is_state(0)) for s in sockets]
    while latest[-1]["status"] == "active":
        ply = latest[-1]["ply"]
        seat = latest[-1]["to_move"]
        await sockets[seat].send(
            {"type": "move", "ply": ply, "move": take_first(latest[seat]["legal_moves"], ply)}
        )
        latest = [await s.until(is_state(ply + 1)) for s in sockets]
    await database_sync_to_async(services.game_score)(game_id=game.pk)
    for socket in sockets:
        await socket.until(lambda f: f["type"] == "state" and f["result"] is not None)
        await socket.close()

    await database_sync_to_async(game.refresh_from_db)()
    states = game_module("topiary").replay(game.record)
    viewers = [*range(players), None]
    checked = 0
    for viewer, socket in zip(viewers, sockets, strict=True):
        for frame in socket.frames:
            if frame.get("status") == "finished":
                # The game is over: the table shows everything (docs/PROTOCOL.md, the end).
                assert frame["final"]["position"] == states[-1].to_json()
                continue
            text = json.dumps(frame)
            assert not KNOWN_FACE_DOWN.search(text), frame
            hidden = hidden_from(states[frame["ply"]].to_json(), viewer)
            leaked = set(TILE.findall(text)) & hidden
            assert not leaked, f"seat {viewer} saw {leaked} at ply {frame['ply']}"
            assert "box" not in text and frame.get("final") is None
            others = [entry for entry in frame.get("moves", []) if entry["seat"] != viewer]
            assert all(entry["took"] is None for entry in others)
            checked += 1
    assert checked >= len(sockets) * (len(states) - 1)
    assert latest_state(sockets[-1].frames)["result"]["ranks"]


@in_own_loop
async def test_a_takeback_reaches_both_players_with_a_higher_takeback_count(
    make_player, redis_layer
):
    ann, bob = [await database_sync_to_async(make_player)() for _ in range(2)]
    game = await database_sync_to_async(live_game)(
        [ann, bob], kind="wizards_garden", first_player=0
    )
    path = f"/ws/game/{game.pk}/"
    ann_socket, bob_socket = [await Socket.open(path, u) for u in (ann, bob)]
    first = await ann_socket.until(is_state(0))
    await ann_socket.send({"type": "move", "ply": 0, "move": first["legal_moves"][0]})
    moved = await ann_socket.until(is_state(1))
    assert moved["takeback"]["can_offer"]
    await ann_socket.send({"type": "takeback", "ply": 1})
    offer = await bob_socket.until(
        lambda f: f["type"] == "state" and (f["takeback"] or {}).get("offered_by") == 0
    )
    assert offer["takeback"]["can_answer"]
    await bob_socket.send({"type": "takeback_accept"})
    back = await ann_socket.until(lambda f: f["type"] == "takeback")
    assert (
        back["ply"] == 0 and back["takebacks"] == 1 and back["legal_moves"] and back["moves"] == []
    )
    for socket in (ann_socket, bob_socket):
        await socket.close()


@in_own_loop
async def test_claim_over_the_socket_once_the_opponent_is_gone_a_minute(pair):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    ann_socket, bob_socket = [await Socket.open(path, u) for u in (ann, bob)]
    await ann_socket.until(is_state(0))
    await ann_socket.send({"type": "claim"})
    assert (await ann_socket.until(refusal))["code"] == "not_allowed"
    await bob_socket.close()
    gone = await ann_socket.until(
        lambda f: f["type"] == "presence" and f["seat"] == 1 and not f["online"]
    )
    assert gone["ply"] == 0

    def a_minute_ago():
        Seat.objects.filter(game=game, user=bob).update(
            last_seen=timezone.now() - timedelta(seconds=61)
        )

    await database_sync_to_async(a_minute_ago)()
    await ann_socket.send({"type": "claim"})
    over = await ann_socket.until(lambda f: f["type"] == "state" and f["status"] == "finished")
    assert over["termination"] == "gone"
    await ann_socket.close()


@in_own_loop
async def test_abort_over_the_socket_before_moving(pair):
    _ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    bob_socket = await Socket.open(path, bob)
    first = await bob_socket.until(is_state(0))
    assert first["can_abort"]
    await bob_socket.send({"type": "abort"})
    aborted = await bob_socket.until(lambda f: f["type"] == "state" and f["status"] == "aborted")
    assert aborted["termination"] == "abort" and aborted["legal_moves"] == []
    await bob_socket.close()


@in_own_loop
async def test_the_lobby_socket_sends_the_tables_again_when_one_opens(make_player, redis_layer):
    from channels.testing import WebsocketCommunicator

    from topiary_site.asgi import application

    ann = await database_sync_to_async(make_player)()
    lobby = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver")]
    )
    assert (await lobby.connect(timeout=10))[0]
    assert await lobby.receive_json_from(timeout=20) == {"type": "tables", "tables": []}
    assert (await lobby.receive_json_from(timeout=20))["type"] == "seeks"  # quick pairing
    table = await database_sync_to_async(services.table_create)(
        user=ann,
        kind="topiary",
        players=4,
        rated=False,
        clock_initial=180,
        clock_increment=2,
        correspondence_days=None,
    )
    listed = await lobby.receive_json_from(timeout=20)
    assert [t["id"] for t in listed["tables"]] == [table.pk]
    assert listed["tables"][0]["seats"][0]["username"] == ann.username
    await lobby.disconnect()


@in_own_loop
async def test_a_heartbeat_from_a_second_tab_shows_the_player_online_again(pair):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    bob_socket = await Socket.open(path, bob)
    first_tab, second_tab = [await Socket.open(path, ann) for _ in range(2)]
    await first_tab.close()
    left = await bob_socket.until(
        lambda f: f["type"] == "presence" and f["seat"] == 0 and not f["online"]
    )
    assert left["ply"] == 0
    await second_tab.send({"type": "ping"})
    pong = await second_tab.until(lambda f: f["type"] == "pong")
    assert pong == {"type": "pong", "ply": 0, "takebacks": 0}
    back = await bob_socket.until(lambda f: f["type"] == "presence" and f["seat"] == 0)
    assert back["online"] is True
    for socket in (second_tab, bob_socket):
        await socket.close()


@in_own_loop
async def test_a_take_in_two_steps_over_the_socket(pair):
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    ann_socket, bob_socket, watcher = [await Socket.open(path, u) for u in (ann, bob, None)]
    first = await ann_socket.until(is_state(0))
    # A socket is accepted before its snapshot is read: wait for every first snapshot, or
    # one read after the move would be a ``state`` of ply 1 ahead of the ``move`` frame.
    for socket in (bob_socket, watcher):
        await socket.until(is_state(0))
    step = next(s for s in first["legal_steps"] if " " in s and "=" not in s)
    await ann_socket.send({"type": "move", "ply": 0, "move": step})
    mine, theirs, public = [await s.until(is_state(1)) for s in (ann_socket, bob_socket, watcher)]
    took = mine["pending"]["took"]
    assert mine["type"] == theirs["type"] == "move" and mine["to_move"] == theirs["to_move"] == 0
    assert mine["move"] == {"seat": 0, "move": step, "took": took} and took != "?"
    assert theirs["move"] == public["move"] == {"seat": 0, "move": step, "took": None}
    assert theirs["pending"]["took"] == public["pending"]["took"] == "?"
    assert took not in json.dumps(theirs) and took not in json.dumps(public)
    assert mine["legal_steps"] and all(s.startswith("=") for s in mine["legal_steps"])

    # A reload between the steps comes back to the pending take, the tile still in hand.
    again = await Socket.open(path, ann)
    resumed = await again.until(lambda f: f["type"] == "state")
    assert resumed["ply"] == 1 and resumed["pending"] == mine["pending"]
    assert resumed["legal_steps"] == mine["legal_steps"]
    await again.close()

    await ann_socket.send({"type": "move", "ply": 0, "move": step})
    assert (await ann_socket.until(refusal))["code"] == "duplicate"
    await bob_socket.send({"type": "move", "ply": 1, "move": "=*"})
    assert (await bob_socket.until(refusal))["code"] == "not_your_turn"
    await ann_socket.send({"type": "move", "ply": 1, "move": "=*"})
    planted = [await s.until(is_state(2)) for s in (ann_socket, bob_socket, watcher)]
    assert planted[0]["move"]["move"] == "=*" and planted[0]["pending"] is None
    assert planted[1]["move"] == planted[2]["move"] == {"seat": 0, "move": f"={took}", "took": None}
    assert planted[1]["to_move"] == 1 and planted[1]["legal_steps"]
    assert await ply_of(game) == 2
    for socket in (ann_socket, bob_socket, watcher):
        await socket.close()
