"""The Redis channel layer, with a connection pool that suits long-lived sockets.

channels_redis hands its host options to redis-py's ``ConnectionPool``, whose
defaults break live play in two ways:

- a 5 s socket timeout, the same length as channels_redis's blocking read
  (``BZPOPMIN`` with a 5 s timeout), so an idle socket's read could time out on
  the client side first and the socket died with 1011 every 5-25 s;
- a pool that raises ``MaxConnectionsError`` when full, so hundreds of sockets
  closing at once (each discarding its group) failed instead of waiting a moment.

This layer waits for a free connection (``BlockingConnectionPool``) and
``settings.channel_layer_host`` sets a read timeout longer than the blocking read.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(BaseRedisChannelLayer):
    """channels_redis's layer on a pool that waits for a connection instead of failing."""

    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
