"""The Redis channel layer (kit.channel_layer) on a real Redis, as two processes.

Each layer instance stands for one process (a web server, a Celery worker): its own
channels get their messages straight from senders in the same process, channels of
other processes through Redis, and nothing is lost, reordered or sent to a channel
whose consumer is gone.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis

from kit.channel_layer import RedisChannelLayer
from topiary_site.settings import channel_layer_host

pytestmark = pytest.mark.redis


@pytest.fixture
def prefix() -> str:
    return f"test-layer-{uuid.uuid4().hex[:8]}"


def process_layer(url: str, prefix: str, **options) -> RedisChannelLayer:
    """One process's layer; both processes of a test share Redis and the prefix."""
    return RedisChannelLayer(
        hosts=[channel_layer_host(url)], prefix=prefix, capacity=100, **options
    )


def inbox_size(url: str, prefix: str, layer: RedisChannelLayer) -> int:
    """Messages waiting in Redis for ``layer``'s process."""
    return redis.Redis.from_url(url).zcard(f"{prefix}{layer.local_prefix}")


async def receive(layer: RedisChannelLayer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), timeout=5)


@pytest.mark.parametrize(
    "redis_line", [True, False], ids=["kit.redis_line", "redis-py (rediss://, ours-redis-py)"]
)
async def test_a_group_message_reaches_this_process_directly_and_the_other_through_redis(
    redis_url, prefix, redis_line
):
    web = process_layer(redis_url, prefix, redis_line=redis_line)
    other = process_layer(redis_url, prefix, redis_line=redis_line)
    assert (web._line() is not None) is redis_line
    here, there = await web.new_channel(), await other.new_channel()
    await web.group_add("game-1-seat-0", here)
    await web.group_add("game-1-seat-0", there)
    try:
        await web.group_send("game-1-seat-0", {"type": "frame", "text": "ply 1"})
        # Nothing for this process went into Redis; the other process's copy did.
        assert inbox_size(redis_url, prefix, web) == 0
        assert inbox_size(redis_url, prefix, other) == 1
        assert await receive(web, here) == {"type": "frame", "text": "ply 1"}
        assert await receive(other, there) == {"type": "frame", "text": "ply 1"}
    finally:
        await web.flush()
        await other.close_pools()


async def test_a_message_to_build_is_built_once_and_only_for_a_group_with_members(
    redis_url, prefix
):
    """A move's frames come as builders: the frame of a bot's seat, or of spectators
    nobody is, is never built; one with sockets in two processes is built once."""
    web, other = process_layer(redis_url, prefix), process_layer(redis_url, prefix)
    here, there = await web.new_channel(), await other.new_channel()
    await web.group_add("game-3-seat-0", here)
    await web.group_add("game-3-seat-0", there)
    built: list[str] = []

    def builder(text: str):
        def build() -> dict:
            built.append(text)
            return {"type": "frame", "text": text}

        return build

    try:
        await web.group_send_many(
            [
                ("game-3-seat-0", builder("for seat 0")),
                ("game-3-seat-1", builder("for the bot")),
                ("game-3-watch", builder("for spectators")),
            ]
        )
        assert built == ["for seat 0"]
        assert await receive(web, here) == {"type": "frame", "text": "for seat 0"}
        assert await receive(other, there) == {"type": "frame", "text": "for seat 0"}
    finally:
        await web.flush()
        await other.close_pools()


async def test_messages_from_this_process_and_another_each_arrive_once_and_in_order(
    redis_url, prefix
):
    web, worker = process_layer(redis_url, prefix), process_layer(redis_url, prefix)
    socket = await web.new_channel()
    await web.group_add("game-2-watch", socket)
    try:
        for ply in range(5):
            await web.group_send_many([("game-2-watch", {"type": "frame", "text": f"web {ply}"})])
        for ply in range(5):
            # A Celery worker's push (a bot's move): through Redis, into the same queue.
            await worker.group_send("game-2-watch", {"type": "frame", "text": f"bot {ply}"})
        texts = [(await receive(web, socket))["text"] for _ in range(10)]
        assert texts == [f"web {ply}" for ply in range(5)] + [f"bot {ply}" for ply in range(5)]
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(web.receive(socket), timeout=0.5)
    finally:
        await web.flush()
        await worker.close_pools()


async def test_a_single_channel_send_within_the_process_arrives(redis_url, prefix):
    web = process_layer(redis_url, prefix)
    lobby_socket = await web.new_channel()
    try:
        await web.send(lobby_socket, {"type": "frame", "text": "paired"})
        assert inbox_size(redis_url, prefix, web) == 0
        assert (await receive(web, lobby_socket))["text"] == "paired"
    finally:
        await web.flush()


async def test_a_closed_channel_is_sent_nothing_and_keeps_no_queue(redis_url, prefix):
    web = process_layer(redis_url, prefix)
    gone, staying = await web.new_channel(), await web.new_channel()
    # The consumer died before it could leave its group (a crash): its entry is still there.
    await web.group_add("game-3-seat-1", gone)
    await web.group_add("game-3-seat-1", staying)
    web.channel_closed(gone)
    try:
        for ply in range(3):
            await web.group_send("game-3-seat-1", {"type": "frame", "text": f"ply {ply}"})
        assert gone not in web.receive_buffer
        assert [(await receive(web, staying))["text"] for _ in range(3)] == [
            "ply 0",
            "ply 1",
            "ply 2",
        ]
    finally:
        await web.flush()


async def test_every_waiting_socket_fails_when_redis_cannot_be_reached(prefix):
    # Nothing listens on port 1: the inbox reader fails at once, and every socket's
    # receive raises (its consumer ends, its page reconnects) instead of waiting forever.
    web = process_layer("redis://127.0.0.1:1/0", prefix)
    first, second = await web.new_channel(), await web.new_channel()
    results = await asyncio.gather(
        asyncio.wait_for(web.receive(first), timeout=10),
        asyncio.wait_for(web.receive(second), timeout=10),
        return_exceptions=True,
    )
    assert all(isinstance(result, redis.exceptions.ConnectionError) for result in results), results


async def test_the_inbox_reader_stops_when_cancelled_even_if_a_redis_read_swallows_it(
    redis_url, prefix
):
    """A cancel that a Redis read swallows (redis-py can turn one into a retried timeout)
    must still stop the reader: an event loop's shutdown cancels every task and waits for
    them all, and a reader blocking again and again for messages hung a test run."""
    layer = process_layer(redis_url, prefix)
    blocking_read = layer._brpop_with_clean

    async def read_that_swallows_a_cancel(*args, **kwargs):
        try:
            return await blocking_read(*args, **kwargs)
        except asyncio.CancelledError:
            return None

    layer._brpop_with_clean = read_that_swallows_a_cancel
    channel = await layer.new_channel()
    receiving = asyncio.ensure_future(layer.receive(channel))
    try:
        await asyncio.sleep(0.2)
        reader = layer._inbox_reader
        reader.cancel()
        await asyncio.wait({reader}, timeout=2)
        assert reader.cancelled()
    finally:
        receiving.cancel()
        await layer.close_pools()


async def test_a_member_in_this_process_gets_a_group_message_without_waiting_for_redis(
    redis_url, prefix
):
    """When many pages open and close at once the event loop is slow to come back to any
    await: a move's frame for a socket of this process does not wait on Redis's list of
    the group's members (here, Redis holds every client for two seconds)."""
    web = process_layer(redis_url, prefix)
    here = await web.new_channel()
    await web.group_add("game-4-seat-0", here)
    try:
        redis.Redis.from_url(redis_url).client_pause(2000)
        sending = asyncio.ensure_future(
            web.group_send("game-4-seat-0", {"type": "frame", "text": "ply 9"})
        )
        assert await receive(web, here) == {"type": "frame", "text": "ply 9"}
        assert not sending.done(), "the message waited for Redis"
        await sending
    finally:
        await web.flush()


async def test_a_channel_that_left_its_group_or_closed_gets_nothing_more_from_it(redis_url, prefix):
    web = process_layer(redis_url, prefix)
    leaving, closing, staying = [await web.new_channel() for _ in range(3)]
    for channel in (leaving, closing, staying):
        await web.group_add("game-5-watch", channel)
    await web.group_discard("game-5-watch", leaving)
    web.channel_closed(closing)
    try:
        await web.group_send("game-5-watch", {"type": "frame", "text": "ply 2"})
        assert (await receive(web, staying))["text"] == "ply 2"
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(web.receive(leaving), timeout=0.5)
        assert web.local_members == {"game-5-watch": {staying}}
        web.channel_closed(staying)
        assert web.local_members == {} and web.local_groups == {}
    finally:
        await web.flush()
