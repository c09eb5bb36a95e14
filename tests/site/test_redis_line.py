"""The channel layer's pipelined Redis connection (kit.redis_line) on a real Redis:
replies in order however many commands are out, errors that do not shift the replies
after them, and a connection lost, paused or closed with its loop."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync
from redis.exceptions import ResponseError

from kit.channel_layer import RedisChannelLayer
from kit.redis_line import RedisLine, Script
from topiary_site.settings import channel_layer_host

pytestmark = pytest.mark.redis


@pytest.fixture
def key() -> str:
    return f"test-line-{uuid.uuid4().hex[:8]}"


async def test_many_commands_out_at_once_each_get_their_own_reply(redis_url, key):
    line = RedisLine(redis_url)
    try:
        counts = await asyncio.gather(*(line.call("INCR", key) for _ in range(200)))
        # Each caller got the reply to its own command, in the order they were sent.
        assert counts == list(range(1, 201))
        assert await line.calls([("SET", key, "x"), ("GET", key), ("DEL", key)]) == [
            b"OK",
            b"x",
            1,
        ]
    finally:
        await line.close()


async def test_an_error_reply_raises_for_its_caller_and_the_next_reply_is_still_right(
    redis_url, key
):
    line = RedisLine(redis_url)
    try:
        await line.call("SET", key, "not a number")
        wrong, right = await asyncio.gather(
            line.call("INCR", key), line.call("GET", key), return_exceptions=True
        )
        assert isinstance(wrong, ResponseError)
        assert right == b"not a number"
    finally:
        await line.call("DEL", key)
        await line.close()


async def test_the_database_of_the_address_is_the_one_used(redis_url, key):
    base = redis_url.rsplit("/", 1)[0]
    line = RedisLine(f"{base}/3")
    try:
        await line.call("SET", key, "in three")
        assert redis.Redis.from_url(f"{base}/3").get(key) == b"in three"
        assert redis.Redis.from_url(f"{base}/2").get(key) is None
    finally:
        await line.call("DEL", key)
        await line.close()


async def test_a_script_unknown_to_redis_is_loaded_and_run(redis_url, key):
    line = RedisLine(redis_url)
    script = Script(f"-- {key}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])")
    try:
        redis.Redis.from_url(redis_url).script_flush()
        assert await line.script(script, [key], [5]) == 5
        # Now cached by its digest.
        assert redis.Redis.from_url(redis_url).script_exists(script.sha) == [True]
        assert await line.script(script, [key], [5]) == 10
    finally:
        await line.call("DEL", key)
        await line.close()


async def test_a_connection_killed_under_a_command_is_replaced_and_the_command_answered(
    redis_url, key
):
    line = RedisLine(redis_url)
    try:
        await line.call("CLIENT", "SETNAME", key)
        first = line.wire
        admin = redis.Redis.from_url(redis_url)
        (killed,) = [client["id"] for client in admin.client_list() if client["name"] == key]
        admin.client_kill_filter(_id=killed)
        # Sent before this loop has seen the connection close: it fails on the dead one
        # and is sent again on a new one.
        assert await asyncio.wait_for(line.call("SET", key, "after the kill"), 10) == b"OK"
        assert line.wire is not first
        assert admin.get(key) == b"after the kill"
    finally:
        await line.call("DEL", key)
        await line.close()


async def test_a_reply_that_does_not_come_in_time_drops_the_connection_and_is_tried_again(
    redis_url, key
):
    line = RedisLine(redis_url, reply_timeout=0.2)
    try:
        await line.call("PING")
        first = line.wire
        redis.Redis.from_url(redis_url).client_pause(600)
        # Not held for ever behind the pause: the wait ends, a new connection is made and
        # the command answered once Redis answers again.
        assert await asyncio.wait_for(line.call("SET", key, "v"), 10) == b"OK"
        assert line.wire is not first
    finally:
        await line.call("DEL", key)
        await line.close()


def test_the_layer_closes_its_connection_with_each_short_lived_event_loop(redis_url):
    """``async_to_sync`` runs each call on a loop of its own: its connection must not
    outlive it, or every push from a request would leave one open."""
    name = f"test-line-{uuid.uuid4().hex[:8]}"
    layer = RedisChannelLayer(hosts=[channel_layer_host(redis_url)], prefix=name)
    admin = redis.Redis.from_url(redis_url)

    async def join_and_leave():
        channel = await layer.new_channel()
        line = layer._line()
        await line.call("CLIENT", "SETNAME", name)
        await layer.group_add("game-1-seat-0", channel)
        await layer.group_discard("game-1-seat-0", channel)

    def open_named() -> int:
        return sum(1 for client in admin.client_list() if client.get("name") == name)

    for _ in range(5):
        # A thread of its own, as a request's: async_to_sync's loop is made and closed.
        worker = threading.Thread(target=async_to_sync(join_and_leave))
        worker.start()
        worker.join()
    assert open_named() == 0
