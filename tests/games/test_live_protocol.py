"""The game socket keeps the promises of docs/PROTOCOL.md that clients rely on to stay in step."""

from __future__ import annotations

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
