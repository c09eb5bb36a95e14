"""The rematch and the short-game abort over the game socket and the HTTP fallback, and
what their frames show each viewer (issue 20)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.models import Game
from tests.games.conftest import every_player_moves, first_legal, live_game
from tests.games.sockets import (
    KNOWN_FACE_DOWN,
    TILE,
    Socket,
    hidden_from,
    in_own_loop,
    tiles_in_page,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def finished_pair(make_player, redis_url):
    ann, bob = make_player(), make_player()
    game = every_player_moves(live_game([ann, bob], first_player=0), [ann, bob])
    services.game_resign(game_id=game.pk, user=bob)
    return ann, bob, game


def rematch_is(**wanted):
    return lambda frame: (
        frame["type"] == "state"
        and all((frame["rematch"] or {}).get(key) == value for key, value in wanted.items())
    )


def http_action(user, game_id: int, action: str) -> tuple[int, dict]:
    client = Client()
    client.force_login(user)
    response = client.post(
        f"/game/{game_id}/{action}",
        data="{}",
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    return response.status_code, response.json()


@in_own_loop
async def test_a_rematch_offered_and_accepted_over_the_socket(finished_pair):
    ann, bob, old = finished_pair
    path = f"/ws/game/{old.pk}/"
    ann_socket, bob_socket = [await Socket.open(path, user) for user in (ann, bob)]
    for socket in (ann_socket, bob_socket):
        await socket.until(rematch_is(offered_by=[]))

    await ann_socket.send({"type": "rematch"})
    offered = await bob_socket.until(rematch_is(offered_by=[0]))
    assert offered["rematch"]["can_answer"] and not offered["rematch"]["can_offer"]
    await ann_socket.until(rematch_is(offered_by=[0], can_cancel=True))

    # Asking twice is refused with the same frame over the socket and over HTTP.
    await ann_socket.send({"type": "rematch"})
    by_socket = await ann_socket.until(lambda frame: frame["type"] == "refused")
    status, by_http = await database_sync_to_async(http_action)(ann, old.pk, "rematch")
    assert status == 409 and by_socket == by_http
    assert by_http["code"] == "already_offered" and by_http["request"] == "rematch"

    await bob_socket.send({"type": "rematch_accept"})
    started = [
        await socket.until(lambda f: f["type"] == "state" and (f["rematch"] or {}).get("game"))
        for socket in (ann_socket, bob_socket)
    ]
    await database_sync_to_async(old.refresh_from_db)()
    assert {frame["rematch"]["game"] for frame in started} == {old.rematch_id}
    seats = await database_sync_to_async(
        lambda: [seat.user_id for seat in old.rematch.seats.order_by("index")]
    )()
    assert seats == [bob.pk, ann.pk]
    for socket in (ann_socket, bob_socket):
        await socket.close()


@in_own_loop
async def test_the_offer_lapses_when_the_other_player_leaves(finished_pair):
    ann, bob, old = finished_pair
    path = f"/ws/game/{old.pk}/"
    ann_socket, bob_socket = [await Socket.open(path, user) for user in (ann, bob)]
    await ann_socket.send({"type": "rematch"})
    await bob_socket.until(rematch_is(offered_by=[0]))
    await bob_socket.close()
    lapsed = await ann_socket.until(rematch_is(offered_by=[], can_offer=True))
    assert lapsed["rematch"]["game"] is None
    await ann_socket.close()


@in_own_loop
async def test_a_decline_over_http_reaches_the_offering_socket(finished_pair):
    ann, bob, old = finished_pair
    ann_socket = await Socket.open(f"/ws/game/{old.pk}/", ann)
    await ann_socket.send({"type": "rematch"})
    await ann_socket.until(rematch_is(offered_by=[0]))
    status, frame = await database_sync_to_async(http_action)(bob, old.pk, "rematch_decline")
    assert status == 200 and frame["rematch"]["offered_by"] == []
    await ann_socket.until(rematch_is(offered_by=[], can_offer=True))
    await ann_socket.close()


@in_own_loop
async def test_an_aborted_short_game_shows_nobody_a_hidden_tile(make_player, redis_url):
    players = [await database_sync_to_async(make_player)() for _ in range(4)]
    game = await database_sync_to_async(live_game)(
        players, rated=True, first_player=0, options={"players": 4}
    )
    path = f"/ws/game/{game.pk}/"
    sockets = [await Socket.open(path, user) for user in players] + [await Socket.open(path)]
    for user in players[:2]:
        ply, move = await database_sync_to_async(first_legal)(game, user)
        await database_sync_to_async(services.move_play)(
            game_id=game.pk, user=user, ply=ply, move=move
        )
    await sockets[0].send({"type": "resign"})
    for socket in sockets:
        aborted = await socket.until(lambda f: f["type"] == "state" and f["status"] == "aborted")
        assert aborted["termination"] == "resign" and aborted["final"] is None
        assert aborted["rematch"] is None
    await database_sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.ABORTED
    full = game.state
    for seat, socket in enumerate([*sockets[:4], sockets[4]]):
        viewer = seat if seat < 4 else None
        text = json.dumps(socket.frames)
        assert not set(TILE.findall(text)) & hidden_from(full, viewer)
        assert not KNOWN_FACE_DOWN.findall(text)
        await socket.close()

    # The page with its result panel, as each player and a visitor get it.
    def page_text(user) -> str:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client.get(f"/game/{game.pk}/").content.decode()

    for seat, user in enumerate([*players, None]):
        page = await database_sync_to_async(page_text)(user)
        frame = page.split('id="frame"', 1)[1]
        assert not tiles_in_page(frame) & hidden_from(full, seat if user else None)
