"""Pushes from a process without an event loop of its own, such as a Celery pool process:
they go through the one loop it keeps (``games.live.pushes_from_own_loop``), on Redis
connections that last, and still arrive after Redis restarts."""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis

from games import live
from kit.channel_layer import RedisChannelLayer
from tests.support.servers import RedisServer
from topiary_site.settings import channel_layer_host

pytestmark = [pytest.mark.redis]

#: A channel that stands for a player's socket in the group pushed to.
READER = "pushes.reader"
GROUP = "game-1-seat-0"


@pytest.fixture
def pool_process(monkeypatch):
    """This test process, pushing as a Celery pool process does."""
    process = live._ProcessLoop()
    monkeypatch.setattr(live, "_process", process)
    live.pushes_from_own_loop()
    yield process
    if process.loop is not None:
        process.loop.call_soon_threadsafe(process.loop.stop)


def layer_on(url: str) -> RedisChannelLayer:
    return RedisChannelLayer(hosts=[channel_layer_host(url)], prefix="pushes-test")


def in_a_loop_of_its_own(url: str, work):
    """Run ``work(layer)`` with a layer of its own (a socket's server, say), and close it."""

    async def run():
        layer = layer_on(url)
        try:
            return await work(layer)
        finally:
            await layer.close_pools()

    return asyncio.run(run())


def reader_joins(url: str) -> None:
    in_a_loop_of_its_own(url, lambda layer: layer.group_add(GROUP, READER))


def reader_receives(url: str) -> str:
    message = in_a_loop_of_its_own(url, lambda layer: asyncio.wait_for(layer.receive(READER), 10))
    return message["text"]


def push(text: str) -> None:
    live.push([(GROUP, {"type": "frame", "text": text, "order": None})])


def test_a_pool_process_pushes_on_lasting_connections_and_past_a_redis_restart(
    tmp_path, request, pool_process, monkeypatch, caplog
):
    own_redis = RedisServer(tmp_path)  # a Redis of this test's own, to restart
    own_redis.start()
    request.addfinalizer(own_redis.stop)
    pushing_layer = layer_on(own_redis.url)
    monkeypatch.setattr(live, "get_channel_layer", lambda: pushing_layer)
    reader_joins(own_redis.url)
    push("first")
    assert reader_receives(own_redis.url) == "first"

    # Each push used to start an event loop of its own, so a Redis connection of its own.
    accepted = redis.Redis.from_url(own_redis.url).info("stats")["total_connections_received"]
    for number in range(4):
        push(f"then {number}")
    stats = redis.Redis.from_url(own_redis.url).info("stats")
    assert stats["total_connections_received"] == accepted + 1  # the look just taken
    assert [reader_receives(own_redis.url) for _ in range(4)] == [
        f"then {number}" for number in range(4)
    ]

    # The loop's connections died with Redis; the first push after it tries a fresh one.
    own_redis.stop()
    own_redis.start()
    reader_joins(own_redis.url)
    with caplog.at_level(logging.WARNING, logger="games.live"):
        push("after the restart")
    assert reader_receives(own_redis.url) == "after the restart"
    assert "resync" not in caplog.text
