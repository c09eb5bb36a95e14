"""The game socket keeps the promises of docs/PROTOCOL.md that clients rely on to stay in step."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import selectors, services
from tests.games.conftest import live_game
from tests.games.sockets import Socket, in_own_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def pair(make_player, redis_url):
    ann, bob = make_player(), make_player()
    return ann, bob, live_game([ann, bob], first_player=0)


def _play_next(game_id: int, players) -> dict:
    """The mover plays their first legal move; the public frame after it."""
    public = selectors.game_state_for(game_id, None)
    user = players[public["to_move"]]
    mine = selectors.game_state_for(game_id, user)
    services.move_play(game_id=game_id, user=user, ply=mine["ply"], move=mine["legal_moves"][0])
    return selectors.game_state_for(game_id, None)


@in_own_loop
async def test_the_move_that_ends_the_game_arrives_as_a_move_frame(pair):
    ann, bob, game = pair
    watcher = await Socket.open(f"/ws/game/{game.pk}/", None)
    await watcher.until(lambda f: f["type"] == "state")
    while True:
        after = await database_sync_to_async(_play_next)(game.pk, [ann, bob])
        frame = await watcher.until(lambda f, ply=after["ply"]: f.get("ply") == ply)
        assert frame["type"] == "move", frame["type"]
        assert frame["move"] == after["moves"][-1]
        if after["status"] != "active":
            break
    assert frame["status"] == "finished"
    await watcher.close()


@pytest.mark.parametrize("kind", [["move"], {"a": 1}, 7, None])
@in_own_loop
async def test_a_message_whose_type_is_not_a_string_is_refused_and_the_socket_lives(pair, kind):
    ann, _, game = pair
    socket = await Socket.open(f"/ws/game/{game.pk}/", ann)
    await socket.until(lambda f: f["type"] == "state")
    await socket.send({"type": kind, "ply": 0})
    refused = await socket.until(lambda f: f["type"] == "refused")
    assert refused["code"] == "bad_request" and refused["request"] is None
    await socket.send({"type": "resync"})
    assert (await socket.until(lambda f: f["type"] == "state"))["ply"] == 0
    await socket.close()


@in_own_loop
async def test_a_socket_sending_too_many_messages_is_refused_then_closed(pair, settings):
    settings.SOCKET_MESSAGE_LIMIT = 5
    ann, _, game = pair
    socket = await Socket.open(f"/ws/game/{game.pk}/", ann)
    for _ in range(8):
        await socket.send({"type": "resync"})
    frames = []
    while (output := await socket.comm.receive_output(timeout=10))["type"] != "websocket.close":
        frames.append(json.loads(output["text"]))
    assert output["code"] == 4429
    assert [f["type"] for f in frames].count("state") == 1 + 5
    assert frames[-1]["type"] == "refused" and frames[-1]["code"] == "rate_limited"
    await socket.close()


@in_own_loop
async def test_a_user_may_not_open_more_than_the_cap_of_sockets(pair, settings):
    settings.SOCKETS_PER_USER = 2
    ann, bob, game = pair
    path = f"/ws/game/{game.pk}/"
    kept = [await Socket.open(path, ann) for _ in range(2)]
    extra = await Socket.open(path, ann)
    refused = await extra.until(lambda f: f["type"] == "refused")
    assert refused["code"] == "too_many_sockets"
    assert (await extra.comm.receive_output(timeout=10))["code"] == 4429
    other = await Socket.open(path, bob)
    assert (await other.until(lambda f: f["type"] == "state"))["you"] == 1
    await kept[0].close()
    again = await Socket.open(path, ann)
    assert (await again.until(lambda f: f["type"] == "state"))["you"] == 0
    for socket in (extra, kept[1], other, again):
        await socket.close()
