"""Chat over the real sockets: each socket gets only its own rooms' frames.

The scenarios run on a real web process with the Redis channel layer, and the
players'/spectators' one also in-process on the in-memory layer (the embedded default).
Frames reach one socket in the order they were pushed, so once a socket has seen a
later message, a frame of another room pushed earlier would already be among its frames.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from games.models import Game
from tests.games.sockets import Socket, in_own_loop, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


class Real:
    """One websocket to the real server, keeping every frame it receives."""

    def __init__(self, ws):
        self.ws = ws
        self.frames: list[dict] = []

    async def until(self, wanted) -> dict:
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=30))
            self.frames.append(frame)
            if wanted(frame):
                return frame

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()


def real_opener(base_url: str, cookies: dict):
    async def open_socket(path: str, user=None) -> Real:
        headers = {"Origin": base_url}
        if user is not None:
            headers["Cookie"] = cookies[user.pk]
        return Real(
            await connect(base_url.replace("http", "ws") + path, additional_headers=headers)
        )

    return open_socket


def said(text: str):
    return lambda frame: frame["type"] == "chat" and frame["message"]["text"] == text


def typed(kind: str):
    return lambda frame: frame["type"] == kind


def refused(frame) -> bool:
    return frame["type"] == "refused" and frame["request"].startswith("chat_")


def texts(socket) -> set[str]:
    return {f["message"]["text"] for f in socket.frames if f["type"] == "chat"}


def rooms(history: dict) -> list[tuple[str, bool]]:
    return [(room["room"], bool(room["closed"])) for room in history["rooms"]]


async def hello(socket) -> dict:
    await socket.send({"type": "chat_hello"})
    return await socket.until(typed("chat_history"))


async def post(socket, room: str, text: str) -> None:
    await socket.send({"type": "chat_send", "room": room, "text": text})


async def rooms_kept_apart(open_socket, game: Game, ann, bob, carol) -> None:
    path = f"/ws/game/{game.pk}/"
    ann_s, bob_s, carol_s, visitor = [await open_socket(path, u) for u in (ann, bob, carol, None)]
    assert rooms(await hello(ann_s)) == [("players", False)]
    assert rooms(await hello(bob_s)) == [("players", False)]
    assert rooms(await hello(carol_s)) == [("spectators", False)]
    assert rooms(await hello(visitor)) == [("spectators", True)]

    await post(ann_s, "players", "ann to bob")
    for socket in (ann_s, bob_s):
        frame = await socket.until(said("ann to bob"))
        assert frame["room"] == "players" and frame["message"]["author"] == ann.username
        assert set(frame["message"]) == {"id", "author", "at", "text"}
    await post(carol_s, "spectators", "tip: c4")
    for socket in (carol_s, visitor):
        await socket.until(said("tip: c4"))
    await post(bob_s, "players", "bob to ann")
    for socket in (ann_s, bob_s):
        await socket.until(said("bob to ann"))
    assert "ann to bob" not in texts(carol_s) | texts(visitor)
    assert "tip: c4" not in texts(ann_s) | texts(bob_s)

    await post(carol_s, "players", "let me in")
    assert (await carol_s.until(refused))["code"] == "no_room"
    await post(ann_s, "spectators", "what do you see?")
    assert (await ann_s.until(refused))["code"] == "no_room"
    await post(visitor, "spectators", "hi")
    signed_out = await visitor.until(refused)
    assert signed_out["code"] == "signed_out" and "Sign in" in signed_out["reason"]

    # Over: the players read the spectators' room, live and in its history, and write in theirs.
    await bob_s.send({"type": "resign"})
    await ann_s.until(lambda f: f.get("status") == "finished")
    await post(carol_s, "spectators", "well played")
    frame = await ann_s.until(said("well played"))
    assert frame["room"] == "spectators"
    history = await hello(bob_s)
    assert rooms(history) == [("players", False), ("spectators", True)]
    assert [m["text"] for m in history["rooms"][1]["messages"]] == ["tip: c4", "well played"]
    for socket in (ann_s, bob_s, carol_s, visitor):
        await socket.close()


def test_players_and_spectators_each_get_only_their_rooms(asgi_server, table):
    ann, bob, carol, game = table
    cookies = {user.pk: session_cookie(user) for user in (ann, bob, carol)}
    in_own_loop(rooms_kept_apart)(real_opener(asgi_server, cookies), game, ann, bob, carol)


def test_the_rooms_are_kept_apart_on_the_in_memory_layer_too(table, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    ann, bob, carol, game = table
    in_own_loop(rooms_kept_apart)(Socket.open, game, ann, bob, carol)


async def lobby_mute_and_limits(open_socket, ann, bob, carol) -> None:
    ann_s, bob_s, carol_s, visitor = [
        await open_socket("/ws/lobby/", u) for u in (ann, bob, carol, None)
    ]
    for socket in (ann_s, bob_s, carol_s, visitor):
        await hello(socket)
    await post(carol_s, "lobby", "carol was here")
    await ann_s.until(said("carol was here"))
    await visitor.until(said("carol was here"))

    await ann_s.send({"type": "chat_mute", "username": carol.username})
    assert (await ann_s.until(typed("chat_muted")))["muted"] == [carol.username]
    await post(carol_s, "lobby", "can ann hear me?")
    await bob_s.until(said("can ann hear me?"))
    await post(bob_s, "lobby", "bob again")
    await ann_s.until(said("bob again"))
    assert "can ann hear me?" not in texts(ann_s)
    history = await hello(ann_s)
    assert [m["author"] for m in history["rooms"][0]["messages"]] == [bob.username]
    assert history["muted"] == [carol.username]

    await post(bob_s, "lobby", "x" * 141)
    too_long = await bob_s.until(refused)
    assert too_long["code"] == "too_long" and "140" in too_long["reason"]
    for n in range(4):  # bob has posted once already: five in ten seconds
        await post(bob_s, "lobby", f"flood {n}")
        await bob_s.until(said(f"flood {n}"))
    await post(bob_s, "lobby", "one too many")
    too_fast = await bob_s.until(refused)
    assert too_fast["code"] == "too_fast" and "too fast" in too_fast["reason"]
    await post(visitor, "lobby", "hello?")
    assert (await visitor.until(refused))["code"] == "signed_out"
    for socket in (ann_s, bob_s, carol_s, visitor):
        await socket.close()


def test_the_lobby_chat_with_a_mute_a_cap_and_a_rate_limit(asgi_server, make_player):
    ann, bob, carol = make_player(), make_player(), make_player()
    cookies = {user.pk: session_cookie(user) for user in (ann, bob, carol)}
    in_own_loop(lobby_mute_and_limits)(real_opener(asgi_server, cookies), ann, bob, carol)


async def tournament_room(open_socket, tournament_id: int, dan) -> None:
    path = f"/ws/tournament/{tournament_id}/"
    dan_s, visitor = await open_socket(path, dan), await open_socket(path, None)
    assert rooms(await hello(visitor)) == [("tournament", True)]
    assert rooms(await hello(dan_s)) == [("tournament", False)]
    await post(dan_s, "tournament", "<b>good luck</b> all")
    frame = await visitor.until(said("<b>good luck</b> all"))
    assert frame["room"] == "tournament"
    await post(visitor, "tournament", "me too")
    assert (await visitor.until(refused))["code"] == "signed_out"
    for socket in (dan_s, visitor):
        await socket.close()


def test_a_tournament_room_is_read_by_visitors_and_written_by_players(
    asgi_server, tournament, make_player
):
    dan = make_player()
    opener = real_opener(asgi_server, {dan.pk: session_cookie(dan)})
    in_own_loop(tournament_room)(opener, tournament.pk, dan)
