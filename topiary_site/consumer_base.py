"""What every websocket consumer of the site shares beneath Channels' own classes
(``SiteConsumer``).

- **The socket's language** (``topiary_site.i18n.SocketLanguage``).
- **No database housekeeping per message.** Channels' ``dispatch`` runs
  ``close_old_connections`` before every message a consumer handles, through its one
  thread-sensitive thread: every frame pushed to every socket queued for that one
  thread. Our consumers never touch the database on the event loop; their work runs
  through ``socket_db.db``, which closes stale connections on its own threads, before
  and after each call.
- **A channel freed with its consumer**: the channel layer is told that no one receives
  on it any more (``RedisChannelLayer.channel_closed``), so it drops later messages for it
  instead of queueing them.
"""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from topiary_site.i18n import SocketLanguage


class LeanConsumer:
    """Mixed in before Channels' consumer class: no per-message hop, a channel freed."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
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


class SiteConsumer(SocketLanguage, LeanConsumer, AsyncJsonWebsocketConsumer):
    """The base of every websocket consumer of the site."""
