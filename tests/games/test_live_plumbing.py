"""The plumbing of live play against the Procfile's real web server and Redis.

Idle sockets across the Redis client's timeouts, group membership that cannot
go stale, many sockets closing at once, pushes that fail after a commit.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import redis
from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import services
from tests.games.conftest import live_game
from tests.games.sockets import in_own_loop, session_cookie
from tests.support import servers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]

#: redis-py's default socket timeout, which once closed idle sockets (seconds).
REDIS_SOCKET_TIMEOUT = 5
#: How long group membership lasts unrefreshed in the web process these tests start (seconds).
GROUP_EXPIRY = 6


def start_short_expiry_web(server_env, server_logs):
    """A web process of its own with a short group expiry, so expiry can be seen in a test."""
    proc, url = servers.start_web(
        {**server_env, "CHANNEL_GROUP_EXPIRY": str(GROUP_EXPIRY)}, server_logs
    )
    yield proc, url
    proc.stop()


#: One for the module's tests that leave it running (each on a game of its own)...
web = pytest.fixture(start_short_expiry_web, scope="module", name="web")
#: ...and one for each test that kills it.
own_web = pytest.fixture(start_short_expiry_web, name="own_web")


def open_socket(url: str, game_id: int, user=None):
    headers = {"Origin": url}
    if user is not None:
        headers["Cookie"] = session_cookie(user)
    return connect(
        f"{url.replace('http', 'ws')}/ws/game/{game_id}/",
        additional_headers=headers,
        open_timeout=20,
    )


def frame_until(ws, wanted, timeout: float = 30) -> dict:
    """The first frame for which ``wanted`` holds; fails if the socket closes first."""
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if wanted(frame):
            return frame


def group_members(redis_url: str, game_id: int, seat: int) -> int:
    client = redis.Redis.from_url(redis_url)
    return sum(client.zcard(key) for key in client.scan_iter(f"*game-{game_id}-seat-{seat}"))


def test_an_idle_socket_stays_open_across_the_redis_timeouts_and_still_hears_moves(
    web, make_player
):
    _, url = web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    with open_socket(url, game.pk, bob) as ws:
        frame_until(ws, lambda f: f["type"] == "state")
        # Idle for well over twice the Redis client's timeout and over the group expiry.
        idle_until = time.monotonic() + 4 * REDIS_SOCKET_TIMEOUT
        while time.monotonic() < idle_until:
            try:
                frame = json.loads(ws.recv(timeout=idle_until - time.monotonic()))
            except TimeoutError:
                break
            assert frame["type"] == "presence", frame
        services.move_play(game_id=game.pk, user=ann, ply=0, move=first_legal(game, ann))
        pushed = frame_until(ws, lambda f: f["type"] == "move")
        assert pushed["ply"] == 1 and pushed["you"] == 1


def first_legal(game, user) -> str:
    from games import selectors

    return selectors.game_state_for(game.pk, user)["legal_moves"][0]


def test_a_socket_whose_server_was_killed_leaves_no_group_entry_behind(
    own_web, make_player, redis_url
):
    proc, url = own_web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    with open_socket(url, game.pk, ann) as ws:
        frame_until(ws, lambda f: f["type"] == "state")
        assert group_members(redis_url, game.pk, 0) == 1
        proc.kill()
        with pytest.raises((ConnectionClosed, OSError, TimeoutError)):
            while True:  # frames sent before the kill (the player's own presence) come first
                ws.recv(timeout=10)
    deadline = time.monotonic() + 10 * GROUP_EXPIRY
    while group_members(redis_url, game.pk, 0):
        assert time.monotonic() < deadline, "the dead socket stayed in its group"
        time.sleep(0.5)


@pytest.fixture
def narrow_web(server_env, server_logs):
    """A web process with only a few Redis connections for its channel layer."""
    proc, url = servers.start_web(
        # One user opens all the sockets here: lift the per-user cap for that.
        {**server_env, "CHANNEL_REDIS_MAX_CONNECTIONS": "3", "SOCKETS_PER_USER": "100"},
        server_logs,
    )
    yield proc, url
    proc.stop()


async def open_and_drop_together(url: str, game_id: int, cookie: str, count: int) -> None:
    headers = {"Origin": url, "Cookie": cookie}
    path = f"{url.replace('http', 'ws')}/ws/game/{game_id}/"
    sockets = await asyncio.gather(
        *(connect_async(path, additional_headers=headers, open_timeout=60) for _ in range(count))
    )
    for ws in sockets:
        assert json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] == "state"
    # Drop every connection at once, without a closing handshake, as a crowd leaving does.
    for ws in sockets:
        ws.transport.abort()


def test_many_sockets_dropping_at_once_all_leave_their_group_without_an_error(
    narrow_web, make_player, redis_url
):
    proc, url = narrow_web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    seen = len(proc.log())
    in_own_loop(open_and_drop_together)(url, game.pk, session_cookie(ann), 60)
    deadline = time.monotonic() + 60
    while group_members(redis_url, game.pk, 0):
        assert time.monotonic() < deadline, "dropped sockets stayed in their group"
        time.sleep(0.2)
    log = proc.log()[seen:]
    assert "Traceback" not in log and "MaxConnectionsError" not in log


def test_a_pong_is_never_newer_than_the_snapshots_its_socket_was_sent(
    web, make_player, unreachable_channel_layer
):
    _, url = web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    with open_socket(url, game.pk, bob) as ws:
        frame_until(ws, lambda f: f["type"] == "state")
        # The move is committed but its push is lost (this process cannot reach Redis).
        services.move_play(game_id=game.pk, user=ann, ply=0, move=first_legal(game, ann))
        ws.send(json.dumps({"type": "ping"}))
        newest = 0
        while (frame := frame_until(ws, lambda f: f["type"] in ("state", "move", "pong")))[
            "type"
        ] != "pong":
            newest = max(newest, frame["ply"])
        assert frame["ply"] == 1 and newest == 1


def test_after_a_web_server_restart_clients_reconnect_resync_and_play_on(
    server_env, server_logs, make_player
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    port = servers.free_port()
    env = {**server_env, "PORT": str(port)}
    proc = servers.Process("web", env, server_logs)
    proc.wait_for_port(port)
    url = f"http://127.0.0.1:{port}"
    try:
        with open_socket(url, game.pk, bob) as ws:
            held = frame_until(ws, lambda f: f["type"] == "state")["ply"]
            proc.kill()
            # Play goes on while the server is down (over another server, say).
            services.move_play(game_id=game.pk, user=ann, ply=0, move=first_legal(game, ann))
            with pytest.raises((ConnectionClosed, OSError, TimeoutError)):
                while True:  # frames sent before the kill (presence) come first
                    ws.recv(timeout=10)
        proc = servers.Process("web", env, server_logs)
        proc.wait_for_port(port)
        with open_socket(url, game.pk, bob) as ws:
            ws.send(json.dumps({"type": "hello", "ply": held}))
            state = frame_until(ws, lambda f: f["type"] == "state" and f["ply"] == 1)
            assert state["to_move"] == 1 and len(state["moves"]) == 1
            ws.send(json.dumps({"type": "move", "ply": 1, "move": state["legal_moves"][0]}))
            assert frame_until(ws, lambda f: f["type"] == "move")["ply"] == 2
    finally:
        proc.stop()
    game.refresh_from_db()
    assert game.ply == 2 and [entry["seat"] for entry in game.moves] == [0, 1]


def closing_code(ws) -> int:
    """The close code the server sent, once the frames before the close are read."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=30)
    return closed.value.rcvd.code


def test_a_message_over_64_kb_closes_its_socket_with_1009(web, make_player):
    _, url = web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    with open_socket(url, game.pk, bob) as ws:
        frame_until(ws, lambda f: f["type"] == "state")
        ws.send(json.dumps({"type": "chat_say", "text": "x" * 70_000}))
        assert closing_code(ws) == 1009
    with open_socket(url, game.pk, bob) as ws:  # the server serves on
        assert frame_until(ws, lambda f: f["type"] == "state")["ply"] == 0


def test_a_stopping_server_tells_its_sockets_to_reconnect_and_leaves_their_groups(
    server_env, server_logs, make_player, redis_url
):
    """A deploy stops the server (SIGTERM): each socket is closed with 1012 (come back)
    and its consumer still ends as usual, so no membership is left behind."""
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    proc, url = servers.start_web(server_env, server_logs)
    try:
        with open_socket(url, game.pk, bob) as ws:
            frame_until(ws, lambda f: f["type"] == "state")
            assert group_members(redis_url, game.pk, 1) == 1
            proc.stop()
            assert closing_code(ws) == 1012
    finally:
        proc.stop()
    assert group_members(redis_url, game.pk, 1) == 0
    assert "Traceback" not in proc.log()
