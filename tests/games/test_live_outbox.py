"""Pushes made on a socket's database thread go out from the socket's event loop, in
order, without holding the thread (games.live.push)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games import live
from kit.channel_layer import RedisChannelLayer
from kit.socket_db import db
from topiary_site.settings import channel_layer_host

pytestmark = pytest.mark.django_db

HELD_LAYER = {"default": {"BACKEND": "tests.games.test_live_outbox.HeldLayer"}}


class HeldLayer(InMemoryChannelLayer):
    """Sends nothing until ``let_go()``; notes each ``group_send_many`` it was asked for."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.sends: list[list[tuple[str, dict]]] = []
        self.asked = 0
        #: Events of the calls waiting at the gate.
        self.held = 0
        self.gate: asyncio.Event | None = None

    def let_go(self) -> None:
        self._gate().set()

    def _gate(self) -> asyncio.Event:
        if self.gate is None:
            self.gate = asyncio.Event()
        return self.gate

    async def group_send_many(self, sends):
        self.asked += 1
        self.held += len(sends)
        await self._gate().wait()
        self.sends.append(
            [(group, event() if callable(event) else event) for group, event in sends]
        )


def event(name: str) -> dict:
    return {"type": "frame", "text": name, "order": None}


async def until(condition, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_a_push_from_a_socket_thread_goes_out_after_the_thread_is_done(settings):
    settings.CHANNEL_LAYERS = HELD_LAYER

    async def scenario():
        layer = get_channel_layer()

        def move_committed() -> str:
            live.push([(live.seat_group(7, 0), event("move"))])
            return "answered"

        # The thread answers while the layer still holds the push.
        assert await asyncio.wait_for(db(move_committed)(), 10) == "answered"
        assert layer.sends == []
        layer.let_go()
        await until(lambda: layer.sends)
        assert layer.sends == [[(live.seat_group(7, 0), event("move"))]]

    asyncio.run(scenario())


def test_pushes_go_out_in_order_and_those_that_wait_go_together(settings):
    settings.CHANNEL_LAYERS = HELD_LAYER

    async def scenario():
        layer = get_channel_layer()
        await db(live.push)([("game-7-seat-0", event("ply 1"))])
        await until(lambda: layer.asked == 1)
        # While the first is out, two more arrive from two calls.
        await db(live.push)([("game-7-seat-1", event("ply 2"))])
        await db(live.push)([("game-7-seat-0", event("ply 3")), ("lobby", event("lobby"))])
        layer.let_go()
        await until(lambda: len(layer.sends) == 2)
        assert layer.sends == [
            [("game-7-seat-0", event("ply 1"))],
            [
                ("game-7-seat-1", event("ply 2")),
                ("game-7-seat-0", event("ply 3")),
                ("lobby", event("lobby")),
            ],
        ]

    asyncio.run(scenario())


def test_a_push_off_the_socket_threads_is_sent_before_it_returns(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "tests.games.test_live_outbox.SentLayer"}}
    live.push([("lobby", event("lobby"))])
    assert get_channel_layer().sends == [[("lobby", event("lobby"))]]


class SentLayer(InMemoryChannelLayer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.sends: list = []

    async def group_send_many(self, sends):
        self.sends.append(list(sends))


def test_a_thread_waits_for_room_when_the_loop_is_behind_on_its_pushes(settings):
    settings.CHANNEL_LAYERS = HELD_LAYER

    async def scenario():
        layer = get_channel_layer()
        pushes = live.OUTBOX_LIMIT + 1

        def push_many() -> str:
            for number in range(pushes):
                live.push([("lobby", event(str(number)))])
            return "all handed over"

        call = asyncio.ensure_future(db(push_many)())
        await until(lambda: layer.asked == 1)
        outbox = live._outboxes[asyncio.get_running_loop()]
        # The limit is reached, pushes out and waiting: the last push has no room.
        await until(lambda: layer.held + len(outbox.waiting) == live.OUTBOX_LIMIT)
        assert not call.done()
        layer.let_go()
        assert await asyncio.wait_for(call, 10) == "all handed over"
        await until(lambda: sum(len(sent) for sent in layer.sends) == pushes)
        sent = [frame["text"] for batch in layer.sends for _, frame in batch]
        assert sent == [str(number) for number in range(pushes)]

    asyncio.run(scenario())


class NotedRedisLayer(RedisChannelLayer):
    """The site's Redis layer, noting each ``group_send_many`` once it has returned."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.returned: list[list[str]] = []

    async def group_send_many(self, sends, **kwargs):
        await super().group_send_many(sends, **kwargs)
        self.returned.append([group for group, _ in sends])


@pytest.mark.redis
def test_a_frame_for_a_socket_of_this_process_does_not_wait_for_an_earlier_push(
    settings, redis_url
):
    """The first push's send is out, waiting for Redis (held for two seconds here, as a
    busy event loop holds it when many pages open and close at once); a move's frame for
    a socket of this process, pushed after it, arrives meanwhile."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tests.games.test_live_outbox.NotedRedisLayer",
            "CONFIG": {"hosts": [channel_layer_host(redis_url)], "prefix": uuid.uuid4().hex},
        }
    }

    async def scenario():
        layer = get_channel_layer()
        socket = await layer.new_channel()
        await layer.group_add(live.seat_group(8, 0), socket)
        try:
            redis.Redis.from_url(redis_url).client_pause(2000)
            await db(live.push)([(live.watchers_group(8), event("for spectators"))])
            await db(live.push)([(live.seat_group(8, 0), event("ply 4"))])
            received = await asyncio.wait_for(layer.receive(socket), 10)
            assert received == event("ply 4")
            assert layer.returned == [], "the frame waited for the push before it"
            # Both sends go out, in order, once Redis answers again.
            await until(lambda: len(layer.returned) == 2)
            assert layer.returned == [[live.watchers_group(8)], [live.seat_group(8, 0)]]
        finally:
            await layer.flush()
            await layer.close_pools()

    asyncio.run(scenario())
