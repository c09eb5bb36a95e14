"""One pipelined connection to Redis per event loop, for the channel layer's hot commands.

redis-py's asyncio client spends about 105 µs of CPU on a ``PING`` here and about
345 µs on the pipeline that lists a move's three groups (a connection taken from the
pool and given back, timeouts, retries, its observability hooks: some 430 Python calls
per command). The Redis server's own share is a few microseconds. A move's push, a
page's group join and leave and its presence frames each paid that on the one event
loop of a web process (docs/decisions/0014-a-pipelined-redis-line.md).

``RedisLine`` writes each command to one connection as it comes, without waiting for
the replies before it, and hands replies back in order: Redis answers a connection's
commands in the order it read them. No pool, no lock, and a command costs one write.

Only for ``redis://`` and ``unix://`` addresses (``RedisLine.serves``); others (TLS)
keep redis-py's client. A command that fails on a lost connection is tried again on a
new one, with redis-py's default backoff and count, so that a Redis restart costs what
it did with redis-py: the commands sent here are idempotent or, as the sends, would be
retried by redis-py too.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import random
import time
from urllib.parse import urlparse

from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

#: redis-py's defaults for its asyncio client (``redis._defaults``): 10 tries after the
#: first, each after a random wait of up to 10 ms x 2^tries, at most 1 s.
RETRIES = 10
RETRY_BASE = 0.01
RETRY_CAP = 1.0


class _Incomplete(Exception):
    """The buffer ends inside a reply."""


def _reply(buffer: bytearray, start: int):
    """The RESP2 reply that begins at ``start`` and where the next one begins."""
    end = buffer.find(b"\r\n", start)
    if end < 0:
        raise _Incomplete
    kind, line = buffer[start], bytes(buffer[start + 1 : end])
    after = end + 2
    if kind == 0x3A:  # ':' integer
        return int(line), after
    if kind == 0x24:  # '$' bulk string
        size = int(line)
        if size < 0:
            return None, after
        if len(buffer) < after + size + 2:
            raise _Incomplete
        return bytes(buffer[after : after + size]), after + size + 2
    if kind == 0x2A:  # '*' array
        count = int(line)
        if count < 0:
            return None, after
        items = []
        for _ in range(count):
            item, after = _reply(buffer, after)
            items.append(item)
        return items, after
    if kind == 0x2B:  # '+' simple string
        return line, after
    if kind == 0x2D:  # '-' error
        message = line.decode("utf8", "replace")
        if message.startswith("NOSCRIPT"):
            return NoScriptError(message), after
        return ResponseError(message), after
    raise RedisConnectionError(f"unexpected reply from Redis: {bytes(buffer[start:end])!r}")


def _command(args) -> bytes:
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode("utf8")
        elif isinstance(arg, int | float):
            arg = repr(arg).encode()
        parts.append(b"$%d\r\n%b\r\n" % (len(arg), arg))
    return b"".join(parts)


class _Wire(asyncio.Protocol):
    """The connection: commands out as they come, replies matched to them in order."""

    def __init__(self, reply_timeout: float):
        self.reply_timeout = reply_timeout
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        #: (future, when sent) of each command sent and not yet answered, oldest first.
        self.waiting: collections.deque[tuple[asyncio.Future, float]] = collections.deque()
        self.lost: BaseException | None = None
        self.watch: asyncio.TimerHandle | None = None

    def connection_made(self, transport):
        self.transport = transport

    def send(self, payload: bytes, count: int = 1) -> list[asyncio.Future]:
        """Write ``payload``, ``count`` commands; a future for each one's reply."""
        if self.lost is not None:
            raise self.lost
        loop = asyncio.get_running_loop()
        sent = time.monotonic()
        futures = [loop.create_future() for _ in range(count)]
        self.waiting.extend((future, sent) for future in futures)
        self.transport.write(payload)
        if self.watch is None:
            self._watch_oldest()
        return futures

    def _watch_oldest(self) -> None:
        """Close the connection if its oldest command is not answered in time: a reply
        that never comes would otherwise hold every command behind it."""
        self.watch = None
        if not self.waiting or self.lost is not None:
            return
        due = self.waiting[0][1] + self.reply_timeout
        if time.monotonic() >= due:
            self._fail(RedisTimeoutError("Timeout reading from Redis"))
            self.transport.abort()
            return
        loop = asyncio.get_running_loop()
        self.watch = loop.call_at(loop.time() + (due - time.monotonic()), self._watch_oldest)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        start = 0
        try:
            while start < len(buffer):
                try:
                    reply, start = _reply(buffer, start)
                except _Incomplete:
                    break
                future, _ = self.waiting.popleft()
                if not future.done():
                    future.set_result(reply)
        except Exception as error:  # a reply we cannot read: nothing after it can be trusted
            self._fail(RedisConnectionError(f"unreadable reply from Redis: {error!r}"))
            self.transport.abort()
            return
        del buffer[:start]

    def connection_lost(self, error):
        self._fail(RedisConnectionError(f"Connection to Redis lost: {error!r}"))

    def _fail(self, error: BaseException) -> None:
        if self.lost is None:
            self.lost = error
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(self.lost)


class RedisLine:
    """Commands to one Redis over one pipelined connection of the running event loop."""

    @staticmethod
    def serves(url: str) -> bool:
        return urlparse(url).scheme in ("redis", "unix")

    def __init__(self, url: str, *, connect_timeout: float = 5, reply_timeout: float = 15):
        # redis-py's own reading of the address, so both clients read it alike.
        address = parse_url(url)
        self.unix_path = address.get("path")
        self.host = address.get("host") or "localhost"
        self.port = address.get("port") or 6379
        self.username = address.get("username")
        self.password = address.get("password")
        self.db = address.get("db") or 0
        self.connect_timeout = connect_timeout
        self.reply_timeout = reply_timeout
        self.wire: _Wire | None = None
        self.connecting: asyncio.Future | None = None

    async def call(self, *args):
        """The reply to one command; a Redis error reply raises."""
        return (await self.calls([args]))[0]

    async def calls(self, commands: list[tuple]) -> list:
        """The replies to several commands, written at once; an error reply raises."""
        payload = b"".join(_command(args) for args in commands)
        failures = 0
        while True:
            try:
                wire = await self._wire()
                replies = [await future for future in wire.send(payload, len(commands))]
                break
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                failures += 1
                if failures > RETRIES:
                    if isinstance(error, OSError):
                        raise RedisConnectionError(f"Redis unreachable: {error!r}") from error
                    raise
                await asyncio.sleep(min(RETRY_CAP, random.random() * RETRY_BASE * 2**failures))
        for reply in replies:
            if isinstance(reply, ResponseError):
                raise reply
        return replies

    async def script(self, script: Script, keys: list, args: list):
        """Run a Lua script by its digest, loading it on first use (``NOSCRIPT``)."""
        try:
            return await self.call("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            return await self.call("EVAL", script.source, len(keys), *keys, *args)

    async def _wire(self) -> _Wire:
        wire = self.wire
        if wire is not None and wire.lost is None:
            return wire
        if self.connecting is None:
            self.connecting = asyncio.ensure_future(self._connect())
        connecting = self.connecting
        try:
            return await asyncio.shield(connecting)
        finally:
            if connecting.done() and self.connecting is connecting:
                self.connecting = None

    async def _connect(self) -> _Wire:
        loop = asyncio.get_running_loop()
        wire = _Wire(self.reply_timeout)
        try:
            async with asyncio.timeout(self.connect_timeout):
                if self.unix_path is not None:
                    await loop.create_unix_connection(lambda: wire, self.unix_path)
                else:
                    await loop.create_connection(lambda: wire, self.host, self.port)
                hello = []
                if self.password is not None:
                    user = (self.username,) if self.username else ()
                    hello += wire.send(_command(("AUTH", *user, self.password)))
                if self.db:
                    hello += wire.send(_command(("SELECT", self.db)))
                for reply in [await future for future in hello]:
                    if isinstance(reply, ResponseError):
                        raise RedisConnectionError(f"Redis refused the connection: {reply}")
        except BaseException:
            # A connection made but not ready in time, or refused, is not left open.
            if wire.transport is not None:
                wire.transport.abort()
            raise
        self.wire = wire
        return wire

    async def close(self) -> None:
        wire, self.wire = self.wire, None
        if wire is not None and wire.transport is not None:
            wire._fail(RedisConnectionError("Connection to Redis closed"))
            wire.transport.close()
            await asyncio.sleep(0)  # let the transport's close run


class Script:
    """A Lua script's source and digest."""

    def __init__(self, source: str):
        self.source = source
        self.sha = hashlib.sha1(source.encode("utf8")).hexdigest()
