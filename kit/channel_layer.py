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

It also delivers within its own process without Redis. A web process's sockets
share one Redis inbox, and channels_redis spends four Redis round trips and a
serialization on every message it takes from it, then passes the message to its
socket through a lock that every waiting socket contends for. A message for a socket
of the same process (the usual case: both players of a game on one web process) now goes
straight into that socket's queue; one reader task per process takes what other
processes (other web processes, the Celery workers) send through Redis.

Its group commands (join, leave, the list of a group's members in other processes and
the send to them) go over one pipelined connection per event loop
(``kit.redis_line``) instead of redis-py's pool: a move's push now costs the
event loop under a quarter of the CPU it did.
"""

from __future__ import annotations

import asyncio
import logging
import time
import types
import weakref

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from redis.asyncio import BlockingConnectionPool

from kit.redis_line import RedisLine, Script

log = logging.getLogger(__name__)


class _InboxLost:
    """Put in every open channel's queue when the process's inbox reader fails (Redis went
    away): each socket's next receive raises, so its consumer ends and its client
    reconnects, joining its groups again (a restarted Redis has forgotten them)."""

    def __init__(self, error: BaseException):
        self.error = error


async def _unswallowed(redis_call):
    """Await ``redis_call`` as a task of its own, through a shield: a cancel of the caller
    raises here whatever the Redis client does with it. On a cancel the call is cancelled
    too, and its outcome, whenever it comes, is read and dropped."""
    call = asyncio.ensure_future(redis_call)
    try:
        return await asyncio.shield(call)
    except asyncio.CancelledError:
        call.cancel()
        call.add_done_callback(lambda done: done.cancelled() or done.exception())
        raise


def _unindex(index: dict[str, set[str]], key: str, value: str) -> None:
    """Take ``value`` out of ``index[key]``, and the key out once its set is empty."""
    entries = index.get(key)
    if entries is not None:
        entries.discard(value)
        if not entries:
            del index[key]


class RedisChannelLayer(BaseRedisChannelLayer):
    """channels_redis's layer on a pool that waits for a connection instead of failing,
    delivering to this process's own channels without Redis."""

    def __init__(self, *args, redis_line: bool = True, **kwargs):
        """``redis_line=False``: group commands through redis-py's client, as for
        ``rediss://`` (``TOPIARY_CHANNEL_LAYER=ours-redis-py``, to measure decision 0014)."""
        super().__init__(*args, **kwargs)
        #: Channels of this process (``new_channel``) that a consumer still receives on.
        self.local_open: set[str] = set()
        #: The groups of this process's channels, each way: a group's local members get
        #: its messages without Redis's list of members.
        self.local_members: dict[str, set[str]] = {}
        self.local_groups: dict[str, set[str]] = {}
        self.local_prefix = f"specific.{self.client_prefix}!"
        self._inbox_reader: asyncio.Task | None = None
        self._inbox_loop: asyncio.AbstractEventLoop | None = None
        #: Each event loop's ``RedisLine`` for group commands (one Redis host, a plain
        #: address); None where redis-py's client serves them.
        self._lines: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        host = self.hosts[0]
        self._line_options = (
            {
                "url": host["address"],
                "connect_timeout": host.get("socket_connect_timeout") or 5,
                "reply_timeout": host.get("socket_timeout") or 15,
            }
            if redis_line and self.ring_size == 1 and RedisLine.serves(host["address"])
            else None
        )

    def _line(self) -> RedisLine | None:
        """The running event loop's ``RedisLine``, closed with the loop; None if this
        layer's Redis is not one a line serves."""
        if self._line_options is None:
            return None
        loop = asyncio.get_running_loop()
        line = self._lines.get(loop)
        if line is None:
            line = self._lines[loop] = RedisLine(**self._line_options)
            _close_with_loop(loop, self._lines)
        return line

    async def _line_close(self) -> None:
        line = self._lines.pop(asyncio.get_running_loop(), None)
        if line is not None:
            await line.close()

    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)

    # ------------------------------------------------------------------ this process's channels

    async def new_channel(self, prefix="specific"):
        name = await super().new_channel(prefix)
        self.local_open.add(name)
        return name

    def channel_closed(self, channel: str) -> None:
        """The consumer of ``channel`` ended: later messages to it are dropped, its queue freed."""
        self.local_open.discard(channel)
        self.receive_buffer.pop(channel, None)
        for group in list(self.local_groups.get(channel, ())):
            self._local_leave(group, channel)

    def _local_leave(self, group: str, channel: str) -> None:
        """Forget ``channel`` as a local member of ``group``, both ways."""
        _unindex(self.local_members, group, channel)
        _unindex(self.local_groups, channel, group)

    def _deliver_local(self, channel: str, message: dict) -> None:
        if channel in self.local_open:
            self.receive_buffer[channel].put_nowait(dict(message))

    async def receive(self, channel):
        """The next message of ``channel``; a channel of this process waits on its own queue,
        filled by senders in this process and by the one inbox reader."""
        if not channel.startswith(self.local_prefix):
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        self.local_open.add(channel)
        self._inbox_reader_running()
        message = await self.receive_buffer[channel].get()
        if isinstance(message, _InboxLost):
            raise message.error
        return message

    def _inbox_reader_running(self) -> None:
        loop = asyncio.get_running_loop()
        reader = self._inbox_reader
        if reader is not None and not reader.done():
            if self._inbox_loop is loop:
                return
            if not self._inbox_loop.is_closed():
                raise RuntimeError("Two event loops are trying to receive() on one channel layer")
        self._inbox_loop = loop
        self._inbox_reader = loop.create_task(self._inbox_read())

    async def _inbox_read(self) -> None:
        """Take this process's messages from Redis into their channels' queues, until Redis
        fails; then every open channel is told (``_InboxLost``) and the next receive starts
        a new reader.

        channels_redis's ``receive_single`` is not used: it blocks again and again until a
        message comes, so a cancel that redis-py swallows inside a read (it can, as a timeout
        it then retries) left the reader blocking for ever, and an event loop's shutdown,
        which waits for every task it cancels, hung. Each read here is a task of its own,
        awaited through a shield, so a cancel stops the reader at once; the read it leaves
        ends by itself within ``brpop_timeout``, and what it took waits in the backup queue,
        which the next read puts back first.
        """
        inbox = self.local_prefix
        index = self.consistent_hash(inbox)
        key = self.prefix + inbox
        while True:
            try:
                member = await _unswallowed(
                    self._brpop_with_clean(index, key, timeout=self.brpop_timeout)
                )
            except Exception as error:
                log.warning("channel layer inbox lost: %r", error)
                lost = _InboxLost(error)
                for open_channel in list(self.local_open):
                    self.receive_buffer[open_channel].put_nowait(lost)
                return
            if member is None:
                continue
            message = self.deserialize(member)
            channel = message.pop("__asgi_channel__", inbox)
            for target in channel if isinstance(channel, list) else [channel]:
                self._deliver_local(target, message)
            # Taken off the backup queue before the next read, which would put it back.
            await _unswallowed(self._clean_receive_backup(index, key))

    async def _inbox_reader_stop(self) -> None:
        reader, self._inbox_reader = self._inbox_reader, None
        if reader is None or reader.done() or self._inbox_loop is not asyncio.get_running_loop():
            return
        reader.cancel()
        await asyncio.wait({reader}, timeout=1)

    async def flush(self):
        await self._inbox_reader_stop()
        self.local_members.clear()
        self.local_groups.clear()
        await super().flush()

    async def close_pools(self):
        await self._inbox_reader_stop()
        await self._line_close()
        await super().close_pools()

    async def send(self, channel, message):
        if channel.startswith(self.local_prefix):
            assert isinstance(message, dict), "message is not a dict"
            self._deliver_local(channel, message)
            return
        await super().send(channel, message)

    # ------------------------------------------------------------------ groups

    async def group_add(self, group, channel):
        """channels_redis's ``group_add`` in one round trip (it makes two), noting a channel
        of this process as a local member first."""
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        if channel in self.local_open:
            self.local_members.setdefault(group, set()).add(channel)
            self.local_groups.setdefault(channel, set()).add(group)
        key = self._group_key(group)
        line = self._line()
        if line is not None:
            await line.calls(
                [("ZADD", key, time.time(), channel), ("EXPIRE", key, self.group_expiry)]
            )
            return
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zadd(key, {channel: time.time()})
        pipe.expire(key, self.group_expiry)
        await pipe.execute()

    async def group_discard(self, group, channel):
        self._local_leave(group, channel)
        line = self._line()
        if line is None:
            await super().group_discard(group, channel)
            return
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        await line.call("ZREM", self._group_key(group), channel)

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    def group_send_here(self, sends: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """The first part of ``group_send_many``, at once and without awaiting: each
        group's members in this process get their message. The sends come back for
        ``group_send_many(..., here_done=True)``, a message built here built."""
        if self.ring_size != 1:
            return sends
        return [(group, self._send_local(group, message)) for group, message in sends]

    async def group_send_many(
        self, sends: list[tuple[str, dict]], *, here_done: bool = False
    ) -> None:
        """``group_send`` of each ``(group, message)``, in one Redis round trip, two if
        another process has members.

        A message may come as a function that builds it, called only if its group has
        members: frames nobody would receive are never built.

        channels_redis spends four round trips per group (expire, list, expire the
        channels' old messages, then a Lua send whose source it uploads every time): a
        move's push to a game's seats and spectators was a dozen. Here one Lua script
        lists every group's channels of other processes (``_REMOTE_MEMBERS``) and, if
        there are any, another (``_SEND_MANY``) expires old messages and adds the new
        ones, with the same capacity rule. One Redis host only
        (the site's set-up); with several, each group goes through channels_redis's
        ``group_send``.

        Channels of this process get the message straight into their queues before the
        first round trip: when many pages open and close at once, every await on the
        event loop waits behind all of their work, and a move's frame waited for the list
        of members that this process already knew
        (docs/decisions/0005-our-own-channel-layer.md).
        """
        if self.ring_size != 1:
            for group, message in sends:
                await super().group_send(group, message() if callable(message) else message)
            return
        if not here_done:
            sends = self.group_send_here(sends)
        now = time.time()
        for group, _ in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
        line = self._line()
        members = await self._remote_members([group for group, _ in sends], now, line)
        keys: list[str] = []
        messages: list[bytes] = []
        capacities: list[int] = []
        for (_, message), remote in zip(sends, members, strict=True):
            if not remote:
                continue
            if callable(message):
                # Built only now that the group is known to have members (games.live).
                message = message()
            _, key_messages, key_capacities = self._map_channel_keys_to_connection(remote, message)
            for key, serialized in key_messages.items():
                keys.append(key)
                messages.append(serialized)
                capacities.append(key_capacities[key])
        if not keys:
            return
        args = [*messages, *capacities, now, self.expiry, int(now) - int(self.expiry)]
        if line is not None:
            over = await line.script(_SEND_MANY, keys, args)
        else:
            connection = self.connection(0)
            script = self.__dict__.get("_send_many_script")
            if script is None:
                script = self._send_many_script = connection.register_script(_SEND_MANY_LUA)
            over = await script(keys=keys, args=args, client=connection)
        if over:
            log.info("%s of %s channels over capacity", over, len(keys))

    async def _remote_members(
        self, groups: list[str], now: float, line: RedisLine | None
    ) -> list[list[str]]:
        """Each group's channels in other processes (this process's own have their
        messages already, or left since), expired memberships dropped first."""
        keys = [self._group_key(group) for group in groups]
        stale = int(now) - self.group_expiry
        members: list[list[str]] = [[] for _ in groups]
        if line is not None:
            found = await line.script(_REMOTE_MEMBERS, keys, [self.local_prefix, stale])
            for index, name in zip(found[::2], found[1::2], strict=True):
                members[index - 1].append(name.decode("utf8"))
            return members
        pipe = self.connection(0).pipeline(transaction=False)
        for key in keys:
            pipe.zremrangebyscore(key, min=0, max=stale)
            pipe.zrange(key, 0, -1)
        for found, names in zip(members, (await pipe.execute())[1::2], strict=True):
            found += [
                name
                for name in (name.decode("utf8") for name in names)
                if not name.startswith(self.local_prefix)
            ]
        return members

    def _send_local(self, group: str, message):
        """Deliver ``message`` to the group's members in this process; the message, built
        if it was built here."""
        members = self.local_members.get(group)
        if not members:
            return message
        if callable(message):
            message = message()
        for channel in list(members):
            self._deliver_local(channel, message)
        return message


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
_SEND_MANY = Script(_SEND_MANY_LUA)

#: KEYS: group keys; ARGV: this process's channel prefix, the score below which a
#: membership has expired. Drops expired memberships; returns (the key's 1-based index,
#: a channel) for each channel of another process, flat.
_REMOTE_MEMBERS = Script("""
local prefix, stale = ARGV[1], ARGV[2]
local found = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, stale)
    for _, name in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
        if string.sub(name, 1, #prefix) ~= prefix then
            found[#found + 1] = i
            found[#found + 1] = name
        end
    end
end
return found
""")


def _close_with_loop(loop: asyncio.AbstractEventLoop, lines: weakref.WeakKeyDictionary) -> None:
    """Close the loop's line when the loop closes, as channels_redis does its pools: a
    loop of ``async_to_sync`` lives for one call."""
    close = loop.close

    def close_line_first(self, *args, **kwargs):
        line = lines.pop(loop, None)
        if line is not None and not loop.is_running() and not loop.is_closed():
            loop.run_until_complete(line.close())
        self.close = close
        return close(*args, **kwargs)

    loop.close = types.MethodType(close_line_first, loop)
