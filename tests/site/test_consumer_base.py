"""What every consumer shares (kit.consumer_base)."""

from __future__ import annotations

import asyncio
import json
import logging

from uvicorn.protocols.utils import ClientDisconnected

from accounts.sockets import SiteConsumer


class Answering(SiteConsumer):
    """A consumer that answers every message, as the game socket answers a ping."""

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "pong"})


def run_quietly(consumer_class, messages: list[dict], send, caplog) -> None:
    """Run a consumer of ``consumer_class`` over ``messages``, with ``send`` standing for
    the server's: it must read them all (its disconnect too) and log nothing at WARNING
    or above."""
    incoming: asyncio.Queue = asyncio.Queue()
    for message in messages:
        incoming.put_nowait(message)

    async def run():
        consumer = consumer_class.as_asgi()
        scope = {"type": "websocket", "path": "/ws/test/", "headers": [], "subprotocols": []}
        await asyncio.wait_for(consumer(scope, incoming.get, send), 10)

    with caplog.at_level(logging.DEBUG):
        asyncio.run(run())
    assert incoming.empty(), "the disconnect was read"
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_a_socket_that_closes_under_a_send_ends_quietly(caplog):
    """A page sends a message and is gone (its tab closed) before the answer is written.

    The server then refuses the send (uvicorn's ``ClientDisconnected``): the short while
    between a page's closing handshake and the consumer reading its disconnect, which a
    real server hits only by chance (so the refusal is raised here the way uvicorn raises
    it). The answer is dropped, the consumer reads its disconnect and ends as usual, and
    nothing is logged as an error: before, Channels ended the consumer with the exception,
    and the server logged it with a traceback each time.
    """
    sent: list[dict] = []

    async def send(message):
        if message["type"] == "websocket.send":
            raise ClientDisconnected()
        sent.append(message)

    messages = [
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "text": json.dumps({"type": "ping"})},
        {"type": "websocket.disconnect", "code": 1001},
    ]
    run_quietly(Answering, messages, send, caplog)
    assert [message["type"] for message in sent] == ["websocket.accept"]


class ClosingOnRequest(SiteConsumer):
    """A consumer that closes its socket when asked, as the game socket does over a limit,
    and passes on frames from its groups."""

    async def receive_json(self, content, **kwargs):
        await self.close(code=4429)

    async def frame(self, event):
        await self.send(text_data=event["text"])


def test_a_frame_for_a_socket_the_consumer_closed_is_dropped_quietly(caplog):
    """A socket closed by its own consumer (over a limit) can still be handed a group's
    frame before its disconnect arrives. uvicorn refuses any message after the close with
    a ``RuntimeError`` (raised here as uvicorn raises it), which ended the consumer with a
    traceback logged as an error; the frame is now dropped without reaching the server."""
    sent: list[dict] = []

    async def send(message):
        if sent and sent[-1]["type"] == "websocket.close":
            raise RuntimeError(
                f"Unexpected ASGI message '{message['type']}', after sending 'websocket.close'."
            )
        sent.append(message)

    messages = [
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "text": json.dumps({"type": "flood"})},
        {"type": "frame", "text": json.dumps({"type": "move"}), "order": None},
        {"type": "websocket.disconnect", "code": 4429},
    ]
    run_quietly(ClosingOnRequest, messages, send, caplog)
    assert [message["type"] for message in sent] == ["websocket.accept", "websocket.close"]
