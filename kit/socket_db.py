"""Database work of websockets: its own pool of threads.

Channels runs ``database_sync_to_async`` work on one thread per process by default
(thread-sensitive), which capped a daphne process at one core's worth of socket
database work. Socket work here runs on a bounded pool of threads
(``settings.SOCKET_DB_THREADS``), so that with the HTTP bound (``kit.limits``)
it always fits in the database connection pool. Each call is a whole unit (a move
locks its game row itself) and sockets share nothing in memory.

A socket's database calls are not all equally urgent. When many games end at once,
hundreds of sockets close and open within a second, each with a few calls (sign-in,
snapshot, presence), and the moves of games still in play used to wait behind them all.
The pool takes the waiting call that is due first: a call is due when it was submitted,
plus ``SLACK`` unless it is a player's action (``db_urgent``: a move, a resign). A move
runs ahead of a page's arrival submitted up to ``SLACK`` before it, and nothing waits
behind moves longer than that.

A page's calls also run on at most ``settings.SOCKET_PAGE_THREADS`` threads at once.
Ordering alone did not keep moves quick in such a wave: every thread ran a page call, a
move shared the interpreter lock with up to seven of them and ran three times as long. With
the page calls held to two threads, the others are free for moves.

The session and user look-up of every socket's handshake runs on the same pool
(``accounts.sockets``): on Channels' one thread a storm of connects queued behind each
other until daphne dropped handshakes it had not finished in time.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import itertools
import threading
import time
from concurrent.futures import Future

from channels.db import database_sync_to_async
from django.conf import settings

#: Seconds a socket's other database calls wait, at most, behind players' actions.
SLACK = 0.25


class RankedThreads:
    """Threads running submitted calls, the one due first first (then in order of
    submission): a call is due ``slack`` seconds after it is submitted through its lane.
    A lane may also hold its calls to ``at_once`` threads at a time, leaving the others
    to the rest. Threads start with the first call; they end with the process."""

    def __init__(self, workers: int, name: str, clock=time.monotonic):
        self.workers, self.name, self.clock = workers, name, clock
        self._lanes: dict[tuple, _Lane] = {}
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._started = False
        self._serving = threading.local()

    def lane(self, slack: float, at_once: int | None = None) -> _Lane:
        """An executor (for ``run_in_executor``) whose calls are due ``slack`` s later and
        run on at most ``at_once`` threads at a time (None: on any)."""
        with self._ready:
            return self._lanes.setdefault((slack, at_once), _Lane(self, slack, at_once))

    def submit(self, slack: float, fn, /, *args, **kwargs) -> Future:
        return self.lane(slack).submit(fn, *args, **kwargs)

    def _submit(self, lane: _Lane, fn, args, kwargs) -> Future:
        future: Future = Future()
        with self._ready:
            if not self._started:
                self._started = True
                for index in range(self.workers):
                    threading.Thread(
                        target=self._work, name=f"{self.name}_{index}", daemon=True
                    ).start()
            call = (future, _running_loop(), fn, args, kwargs)
            # A lane's slack is fixed, so its queue is in order of due time as it is.
            lane.waiting.append((self.clock() + lane.slack, next(self._order), call))
            self._ready.notify()
        return future

    def _first_due(self) -> _Lane | None:
        ready = [
            lane
            for lane in self._lanes.values()
            if lane.waiting and (lane.at_once is None or lane.running < lane.at_once)
        ]
        return min(ready, key=lambda lane: lane.waiting[0][:2], default=None)

    def _work(self) -> None:
        while True:
            with self._ready:
                while (lane := self._first_due()) is None:
                    self._ready.wait()
                _, _, (future, loop, fn, args, kwargs) = lane.waiting.popleft()
                lane.running += 1
            try:
                if not future.set_running_or_notify_cancel():
                    continue
                self._serving.loop = loop
                try:
                    result = fn(*args, **kwargs)
                except BaseException as error:
                    future.set_exception(error)
                else:
                    future.set_result(result)
                finally:
                    self._serving.loop = None
            finally:
                with self._ready:
                    lane.running -= 1
                    if lane.waiting:
                        # A call of this lane may have been turned away while it was full.
                        self._ready.notify()
                del future, loop, fn, args, kwargs

    def serving_loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop whose call this thread is running, or None off these threads."""
        return getattr(self._serving, "loop", None)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Lane:
    def __init__(self, threads: RankedThreads, slack: float, at_once: int | None):
        self.threads, self.slack, self.at_once = threads, slack, at_once
        self.waiting: collections.deque = collections.deque()
        self.running = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return self.threads._submit(self, fn, args, kwargs)


def pages_at_once(threads: int, pages: int) -> int | None:
    """How many of ``threads`` a page's calls may hold: ``pages`` (0: any number), but one
    thread always stays free for moves (with a single thread, pages cannot be held off
    it: None, no limit)."""
    if threads <= 1:
        return None
    return min(pages or threads, threads - 1)


_threads = RankedThreads(settings.SOCKET_DB_THREADS, "socket-db")

#: The event loop whose socket this thread works for, or None (``games.live`` hands its
#: pushes to that loop instead of waiting for them).
serving_loop = _threads.serving_loop

#: ``db(function)(*args)``: run ``function`` on the socket database threads.
db = functools.partial(
    database_sync_to_async,
    thread_sensitive=False,
    executor=_threads.lane(
        SLACK, pages_at_once(settings.SOCKET_DB_THREADS, settings.SOCKET_PAGE_THREADS)
    ),
)
#: ``db_urgent(function)(*args)``: the same for a player's action, ahead of the rest.
db_urgent = functools.partial(
    database_sync_to_async, thread_sensitive=False, executor=_threads.lane(0.0)
)
