"""What every consumer shares (topiary_site.consumer_base)."""

from __future__ import annotations

import asyncio
import json
import logging

from autobahn.exception import Disconnected

from topiary_site.consumer_base import SiteConsumer


class Answering(SiteConsumer):
    """A consumer that answers every message, as the game socket answers a ping."""

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "pong"})


def test_a_socket_that_closes_under_a_send_ends_quietly(caplog):
    """A page sends a message and is gone (its tab closed) before the answer is written.

    Daphne's protocol then refuses the send with ``autobahn.exception.Disconnected``: the
    short while between a page's closing handshake and the connection's end, which a real
    server hits only by chance (so the refusal is raised here the way daphne raises it).
    The answer is dropped, the consumer reads its disconnect and ends as usual, and
    nothing is logged as an error: before, Channels ended the consumer with the exception,
    and daphne logged "Exception inside application" with a traceback each time.
    """
    incoming: asyncio.Queue = asyncio.Queue()
    sent: list[dict] = []

    async def send(message):
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        sent.append(message)

    async def run():
        for message in (
            {"type": "websocket.connect"},
            {"type": "websocket.receive", "text": json.dumps({"type": "ping"})},
            {"type": "websocket.disconnect", "code": 1001},
        ):
            incoming.put_nowait(message)
        consumer = Answering.as_asgi()
        scope = {"type": "websocket", "path": "/ws/test/", "headers": [], "subprotocols": []}
        await asyncio.wait_for(consumer(scope, incoming.get, send), 10)

    with caplog.at_level(logging.DEBUG):
        asyncio.run(run())
    assert [message["type"] for message in sent] == ["websocket.accept"]
    assert incoming.empty(), "the disconnect was read"
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
