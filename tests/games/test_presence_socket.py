"""Online for those who follow you: the player's own socket (``/ws/me/``, open on every
signed-in page) notes them in the cache while it is open (``accounts.presence``)."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache

from accounts.presence import online_of
from tests.games.sockets import Socket, in_own_loop


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@in_own_loop
async def test_a_players_socket_shows_them_online(make_player, redis_url):
    ann, bob = await database_sync_to_async(lambda: (make_player(), make_player()))()
    # Ids come again in a new test database: no note of an earlier run's player counts.
    await database_sync_to_async(cache.delete_many)([f"online:{ann.pk}", f"online:{bob.pk}"])
    socket = await Socket.open("/ws/me/", ann)
    await socket.until(lambda frame: frame["type"] == "challenges")
    for _ in range(100):
        if await database_sync_to_async(online_of)([ann.pk, bob.pk]):
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(online_of)([ann.pk, bob.pk]) == {ann.pk}
    await socket.close()
