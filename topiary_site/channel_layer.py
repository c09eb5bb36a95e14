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

import logging
import time

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.asyncio import BlockingConnectionPool

log = logging.getLogger(__name__)


class RedisChannelLayer(BaseRedisChannelLayer):
    """channels_redis's layer on a pool that waits for a connection instead of failing."""

    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)

    async def group_send_many(self, sends: list[tuple[str, dict]]) -> None:
        """``group_send`` of each ``(group, message)``, in two Redis round trips in all.

        channels_redis spends four round trips per group (expire, list, expire the
        channels' old messages, then a Lua send whose source it uploads every time): a
        move's push to a game's seats and spectators was a dozen. Here one pipeline
        lists every group's channels and one cached Lua script (``EVALSHA``) expires old
        messages and adds the new ones, with the same capacity rule. One Redis host only
        (the site's set-up); with several, each group goes through ``group_send``.
        """
        if self.ring_size != 1:
            for group, message in sends:
                await self.group_send(group, message)
            return
        connection = self.connection(0)
        now = time.time()
        pipe = connection.pipeline(transaction=False)
        for group, _ in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
            key = self._group_key(group)
            pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
            pipe.zrange(key, 0, -1)
        members = (await pipe.execute())[1::2]
        keys: list[str] = []
        messages: list[bytes] = []
        capacities: list[int] = []
        for (_, message), names in zip(sends, members, strict=True):
            if not names:
                continue
            _, key_messages, key_capacities = self._map_channel_keys_to_connection(
                [name.decode("utf8") for name in names], message
            )
            for key, serialized in key_messages.items():
                keys.append(key)
                messages.append(serialized)
                capacities.append(key_capacities[key])
        if not keys:
            return
        script = self.__dict__.get("_send_many_script")
        if script is None:
            script = self._send_many_script = connection.register_script(_SEND_MANY_LUA)
        over = await script(
            keys=keys,
            args=[*messages, *capacities, now, self.expiry, int(now) - int(self.expiry)],
            client=connection,
        )
        if over:
            log.info("%s of %s channels over capacity", over, len(keys))


#: KEYS: channel keys (a key may repeat); ARGV: a message per key, a capacity per key,
#: then the time, the message expiry, and the score below which messages are stale.
_SEND_MANY_LUA = """
local n = #KEYS
local now, expiry, stale = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local over = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, stale)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + n]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over = over + 1
    end
end
return over
"""
