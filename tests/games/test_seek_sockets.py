"""Seeks over the lobby socket and the player's own socket (/ws/me/), against the real
ASGI application and the Redis channel layer: pairing, cancel on disconnect, refusals,
challenges, games starting and correspondence turns reaching only their player."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Game, Seek
from tests.games.conftest import challenge, correspondence_game, first_legal, live_game
from tests.games.sockets import TILE, Socket, closed_at_once, in_own_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

SEEK = {"type": "seek", "kind": "topiary", "players": 2, "time_control": "3+2", "rated": True}
CELL = "topiary:2:3+2:rated"


def seeks_frame(wanted):
    return lambda frame: frame["type"] == "seeks" and wanted(frame)


@pytest.fixture
def ann_bob(make_player, redis_url):
    return make_player(), make_player()


@in_own_loop
async def test_two_lobby_sockets_seeking_one_cell_are_sent_to_one_game(ann_bob):
    ann, bob = ann_bob
    ann_socket, bob_socket = [await Socket.open("/ws/lobby/", user) for user in (ann, bob)]
    await ann_socket.send(SEEK)
    # Everyone sees the seek, with its player's rating; only ann's page calls it its own.
    mine = await ann_socket.until(seeks_frame(lambda f: f["mine"] is not None))
    assert mine["mine"]["cell"] == CELL and mine["waiting"] == {CELL: 1}
    seen = await bob_socket.until(seeks_frame(lambda f: f["seeks"]))
    assert seen["mine"] is None
    assert seen["seeks"][0]["username"] == ann.username and seen["seeks"][0]["rating"] == "1500?"

    await bob_socket.send(SEEK)
    to_ann = await ann_socket.until(lambda f: f["type"] == "paired")
    to_bob = await bob_socket.until(lambda f: f["type"] == "paired")
    assert to_ann == to_bob and to_ann["url"] == f"/game/{to_ann['game']}/"
    game = await database_sync_to_async(Game.objects.get)(pk=to_ann["game"])
    assert game.status == Game.Status.ACTIVE
    assert not await database_sync_to_async(Seek.objects.exists)()
    for socket in (ann_socket, bob_socket):
        await socket.close()


@in_own_loop
async def test_closing_the_page_cancels_its_seek(ann_bob):
    ann, bob = ann_bob
    ann_socket, bob_socket = [await Socket.open("/ws/lobby/", user) for user in (ann, bob)]
    await ann_socket.send(SEEK)
    await bob_socket.until(seeks_frame(lambda f: f["waiting"] == {CELL: 1}))
    await ann_socket.close()
    await bob_socket.until(seeks_frame(lambda f: f["waiting"] == {}))
    assert not await database_sync_to_async(Seek.objects.exists)()
    # Bob seeking now waits: nobody is left to pair him with.
    await bob_socket.send(SEEK)
    await bob_socket.until(seeks_frame(lambda f: f["mine"] is not None))
    assert not await database_sync_to_async(Game.objects.exists)()
    await bob_socket.close()


@in_own_loop
async def test_clicking_again_cancels_and_bad_seeks_are_refused(ann_bob):
    ann, _ = ann_bob
    ann_socket = await Socket.open("/ws/lobby/", ann)
    await ann_socket.send(SEEK)
    await ann_socket.until(seeks_frame(lambda f: f["mine"] is not None))
    await ann_socket.send({"type": "seek_cancel"})
    await ann_socket.until(seeks_frame(lambda f: f["mine"] is None and f["waiting"] == {}))
    await ann_socket.send({**SEEK, "time_control": "7+7"})
    refused = await ann_socket.until(lambda f: f["type"] == "refused")
    assert refused["request"] == "seek" and refused["code"] == "bad_request" and refused["reason"]
    await ann_socket.close()

    visitor = await Socket.open("/ws/lobby/", None)
    await visitor.send(SEEK)
    assert (await visitor.until(lambda f: f["type"] == "refused"))["code"] == "not_signed_in"
    await visitor.close()
    assert not await database_sync_to_async(Seek.objects.exists)()


@in_own_loop
async def test_a_challenge_reaches_the_invited_player_only(ann_bob, make_player):
    ann, bob = ann_bob
    cat = await database_sync_to_async(make_player)()
    bob_me, cat_me = [await Socket.open("/ws/me/", user) for user in (bob, cat)]
    assert (await bob_me.next()) == {"type": "challenges", "challenges": []}
    await cat_me.next()
    game = await database_sync_to_async(challenge)(ann, bob)
    sent = await bob_me.until(lambda f: f["type"] == "challenge")
    assert sent["from"] == ann.username and sent["game"] == game.pk
    assert sent["time_control"] == "5+3" and sent["url"] == f"/game/{game.pk}/"
    # A page opened later is sent the challenges still waiting.
    later = await Socket.open("/ws/me/", bob)
    assert [c["game"] for c in (await later.next())["challenges"]] == [game.pk]

    await database_sync_to_async(services.table_join)(game_id=game.pk, user=bob)
    started = await bob_me.until(lambda f: f["type"] == "game_started")
    assert started["opponents"] == [ann.username] and started["game"] == game.pk
    assert not TILE.search(str(started))
    await cat_me.send({"type": "hello"})
    assert (await cat_me.next()) == {"type": "challenges", "challenges": []}
    assert [f["type"] for f in cat_me.frames] == ["challenges", "challenges"]
    for socket in (bob_me, cat_me, later):
        await socket.close()


@in_own_loop
async def test_a_correspondence_opponents_move_reaches_the_player_to_move(ann_bob):
    ann, bob = ann_bob
    game = await database_sync_to_async(correspondence_game)([ann, bob], first_player=0)
    bob_me = await Socket.open("/ws/me/", bob)
    await bob_me.next()
    ply, move = await database_sync_to_async(first_legal)(game, ann)
    await database_sync_to_async(services.move_play)(game_id=game.pk, user=ann, ply=ply, move=move)
    turn = await bob_me.until(lambda f: f["type"] == "turn")
    assert turn["game"] == game.pk and turn["ply"] == 1 and not turn["live"]
    assert turn["deadline"] > 0
    # Only public facts: no move, no tile.
    assert move not in str(turn) and not TILE.search(str(turn))
    await bob_me.close()


@in_own_loop
async def test_a_visitor_has_no_player_socket(ann_bob):
    assert await closed_at_once("/ws/me/") == 4404


@in_own_loop
async def test_a_game_made_for_the_players_tells_each_of_them(ann_bob):
    """How tournaments (and quick pairing) start games: ``game_create`` with the players."""
    ann, bob = ann_bob
    ann_me, bob_me = [await Socket.open("/ws/me/", user) for user in (ann, bob)]
    for socket in (ann_me, bob_me):
        await socket.next()
    game = await database_sync_to_async(live_game)([ann, bob])
    for socket, opponent in ((ann_me, bob), (bob_me, ann)):
        started = await socket.until(lambda f: f["type"] == "game_started")
        assert started["game"] == game.pk and started["opponents"] == [opponent.username]
        assert started["live"] and started["time_control"] == "5+3"
    for socket in (ann_me, bob_me):
        await socket.close()
