"""Two ASGI server processes share the Redis channel layer: players on each play one game."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from games.models import Game
from tests.games.conftest import live_game
from tests.games.sockets import in_own_loop, session_cookie
from tests.support import servers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def second_server(server_env, server_logs):
    proc, url = servers.start_web(server_env, server_logs)
    yield url
    proc.stop()


async def next_snapshot(ws, ply: int) -> dict:
    """The first game snapshot at ``ply`` this socket receives."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        if frame["type"] in ("state", "move") and frame["ply"] == ply:
            return frame
        assert frame["type"] != "refused", frame


async def play(urls: list[str], cookies: list[str], game_id: int) -> list[dict]:
    sockets = [
        await connect(
            f"{url.replace('http', 'ws')}/ws/game/{game_id}/",
            additional_headers={"Cookie": cookie, "Origin": url},
        )
        for url, cookie in zip(urls, cookies, strict=True)
    ]
    latest = [await next_snapshot(ws, 0) for ws in sockets]
    while latest[0]["status"] == "active":
        ply, seat = latest[0]["ply"], latest[0]["to_move"]
        move = latest[seat]["legal_moves"][ply % len(latest[seat]["legal_moves"])]
        await sockets[seat].send(json.dumps({"type": "move", "ply": ply, "move": move}))
        latest = [await next_snapshot(ws, ply + 1) for ws in sockets]
        # Both see the same game; each sees the moves in their own form (a take's tile).
        assert latest[0]["position"]["garden"] == latest[1]["position"]["garden"]
        assert [e["seat"] for e in latest[0]["moves"]] == [e["seat"] for e in latest[1]["moves"]]
    for ws in sockets:
        await ws.close()
    return latest


def test_players_on_two_server_processes_play_one_game(asgi_server, second_server, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob])
    cookies = [session_cookie(ann), session_cookie(bob)]
    assert asgi_server != second_server
    final = in_own_loop(play)([asgi_server, second_server], cookies, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ply == 16
    assert [frame["you"] for frame in final] == [0, 1]
    assert all(frame["status"] == "finished" for frame in final)
