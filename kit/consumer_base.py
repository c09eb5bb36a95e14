"""What every websocket consumer of the site shares beneath Channels' own classes
(``LeanJsonConsumer``; ``accounts.sockets.SiteConsumer`` adds the socket's language).

- **No database housekeeping per message.** Channels' ``dispatch`` runs
  ``close_old_connections`` before every message a consumer handles, through its one
  thread-sensitive thread: every frame pushed to every socket queued for that one
  thread. Our consumers never touch the database on the event loop; their work runs
  through ``socket_db.db``, which closes stale connections on its own threads, before
  and after each call.
- **A socket that closes under a send is not an error.** Once a page has closed its
  socket, the server refuses sends (uvicorn raises ``ClientDisconnected``, an
  ``OSError`` as the ASGI spec asks; daphne raised ``autobahn.exception.Disconnected``)
  while the consumer may still be answering that page or passing it a frame; Channels
  would end the consumer with a traceback logged as an error for what is the ordinary
  end of a socket. The send is dropped and the consumer reads its disconnect as usual.
  So is a send after the consumer closed the socket itself (over a limit, say), which
  uvicorn refuses with a ``RuntimeError``: a group's frame can still be on its way.
- **A channel freed with its consumer**: the channel layer is told that no one receives
  on it any more (``RedisChannelLayer.channel_closed``), so it drops later messages for it
  instead of queueing them.
"""

from __future__ import annotations

import logging

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from kit.wire import frame_text

log = logging.getLogger(__name__)


class LeanConsumer:
    """Mixed in before Channels' consumer class: no per-message hop, a channel freed."""

    async def __call__(self, scope, receive, send):
        closed = False

        async def send_unless_gone(message):
            nonlocal closed
            if closed:
                log.debug("dropped a %s to a socket this side closed", message.get("type"))
                return
            closed = message.get("type") == "websocket.close"
            try:
                await send(message)
            except OSError:
                # The page has gone; its disconnect is on its way to this consumer.
                self.closing = True
                log.debug("dropped a %s to a socket that has closed", message.get("type"))

        try:
            await super().__call__(scope, receive, send_unless_gone)
        finally:
            closed = getattr(getattr(self, "channel_layer", None), "channel_closed", None)
            name = getattr(self, "channel_name", None)
            if closed is not None and name is not None:
                closed(name)

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class LeanJsonConsumer(LeanConsumer, AsyncJsonWebsocketConsumer):
    """Channels' JSON consumer, lean, its frames written by ``kit.wire``."""

    @classmethod
    async def encode_json(cls, content):
        return frame_text(content)
