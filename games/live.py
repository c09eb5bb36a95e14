"""Pushes to open websockets, transport only. The socket is a hint channel: the database
holds the truth.

Groups: one per seat of a game (that seat's own view), one for spectators (the
public view), one for the lobby, and one per tournament page. What is sent is
built elsewhere (``games.frames`` builds every viewer's frame from that viewer's
engine view); this module only knows groups and how to reach them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from kit.socket_db import serving_loop
from kit.wire import frame_text

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def seat_group(game_id: int, seat: int) -> str:
    """The group of the sockets of the player in ``seat``."""
    return f"game-{game_id}-seat-{seat}"


def watchers_group(game_id: int) -> str:
    """The group of every socket watching a game without a seat in it."""
    return f"game-{game_id}-watch"


def everyone_groups(game_id: int, seat_count: int) -> list[str]:
    """Every group of a game: its seats and its spectators."""
    return [seat_group(game_id, seat) for seat in range(seat_count)] + [watchers_group(game_id)]


def user_group(user_id: int) -> str:
    """The group of a signed-in player's own sockets (``/ws/me/``): events for them alone."""
    return f"user-{user_id}"


def tournament_group(tournament_id: int) -> str:
    """The group of a tournament's live page."""
    return f"tournament-{tournament_id}"


#: A channel event, or how to build it: a lazy one is built only if its group has a socket.
Event = dict | Callable[[], dict]


async def _send_all(events: list[tuple[str, Event]], *, here_done: bool = False) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:
        # The Redis layer sends them all in two round trips (kit.channel_layer),
        # and builds a lazy event only for a group it finds members in.
        await (send_many(events, here_done=True) if here_done else send_many(events))
        return
    for group, event in events:
        await layer.group_send(group, event() if callable(event) else event)


async def send_logged(events: list[tuple[str, Event]], *, here_done: bool = False) -> None:
    """Send each ``(group, event)`` from the event loop; a failure is logged, never raised.
    ``here_done``: the sockets of this process have theirs (``_Outbox``)."""
    try:
        await _send_all(events, here_done=here_done)
    except Exception as error:
        _push_failed(events, error)


def _push_failed(events: list[tuple[str, Event]], error: Exception) -> None:
    groups = ", ".join(group for group, _ in events)
    log.warning("push to %s failed, clients will resync: %r", groups, error)


class _Outbox:
    """Pushes handed to an event loop by the socket database threads, sent from the loop in
    the order they were handed over; what queues up while a send is out goes in the next
    send together.

    A push's frames for this process's own sockets go into their queues as it arrives
    (the Redis layer's ``group_send_here``); only the rest waits for the send before it.
    When many pages open and close at once, each send's Redis round trip waited behind
    all of their work on the loop, and the frames of the moves that came meanwhile
    waited for it (docs/decisions/0007-pushes-in-commit-order.md).

    At most ``OUTBOX_LIMIT`` pushes wait or are out at once: a thread handing over one
    more waits for room. Without that bound the threads committed moves faster than the
    loop could send them, and at 500 games the loop fell so far behind that sockets
    opening then waited over 10 s for a Redis connection and failed.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        #: Pushes handed over and not yet out, each a list of (group, event).
        self.waiting: list[list[tuple[str, Event]]] = []
        self.sending: asyncio.Task | None = None
        self.room = threading.BoundedSemaphore(OUTBOX_LIMIT)

    def hand_over(self, events: list[tuple[str, Event]]) -> None:
        """From any thread but the loop's: queue ``events`` on the loop."""
        self.room.acquire()
        try:
            self.loop.call_soon_threadsafe(self._arrive, events)
        except BaseException:
            self.room.release()
            raise

    def _arrive(self, events: list[tuple[str, Event]]) -> None:
        send_here = getattr(get_channel_layer(), "group_send_here", None)
        if send_here is not None:
            try:
                events = send_here(events)
            except Exception as error:
                _push_failed(events, error)
                events = []
        self.waiting.append(events)
        if self.sending is None:
            self.sending = self.loop.create_task(self._send_waiting())

    async def _send_waiting(self) -> None:
        try:
            while self.waiting:
                pushes, self.waiting = self.waiting, []
                try:
                    await send_logged(
                        [event for events in pushes for event in events],
                        here_done=hasattr(get_channel_layer(), "group_send_here"),
                    )
                finally:
                    for _ in pushes:
                        self.room.release()
        finally:
            self.sending = None


#: Pushes a process's socket threads may have waiting or out at once (``_Outbox``).
OUTBOX_LIMIT = 16
_outboxes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def _send_logged_again_on_failure(events: list[tuple[str, Event]]) -> None:
    """``send_logged``, tried twice: a long-lived loop's Redis connections may have died
    since its last push (a Redis restart), and the first send on them fails."""
    try:
        await _send_all(events)
    except Exception:
        await send_logged(events)


class _ProcessLoop:
    """One event loop, on a thread of its own, for the pushes of a process that has none
    (a Celery pool process).

    ``async_to_sync`` starts a new event loop for each call from such a process, and the
    Redis channel layer keeps its connections per event loop: every push of a bot move
    or a scoring opened a Redis connection and closed it again, about a sixth of the
    worker's CPU per bot move (docs/decisions/0012-workers-keep-their-connections.md). This
    loop lives as long as its process, so its connections do too.
    """

    def __init__(self):
        self.enabled = False
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pid: int | None = None

    def get(self) -> asyncio.AbstractEventLoop | None:
        if not self.enabled:
            return None
        with self.lock:
            # A loop started before a fork has no thread in the child: start another.
            if self.loop is None or self.pid != os.getpid() or self.loop.is_closed():
                self.loop = asyncio.new_event_loop()
                self.pid = os.getpid()
                threading.Thread(target=self.loop.run_forever, name="pushes", daemon=True).start()
            return self.loop


_process = _ProcessLoop()
#: Seconds a process push waits to be sent before it gives up (Redis not answering).
PROCESS_PUSH_PATIENCE = 30


def pushes_from_own_loop() -> None:
    """Send this process's pushes through one long-lived event loop (``_ProcessLoop``);
    for processes without an event loop of their own, such as a Celery pool process."""
    _process.enabled = True


def push(events: list[tuple[str, Event]]) -> None:
    """Send each ``(group, event)``; a failure is logged, never raised.

    Pushes run after the change was committed: the change stands whatever happens
    here, and a client that missed the push catches up on its next ping or resync
    (docs/PROTOCOL.md, "Keeping in step"). Raising would turn a committed move
    into an HTTP 500 or close the mover's socket. All of a change's sends go
    through one hop to the event loop, not one per group.

    On a socket's database thread the sends are handed to the socket's event loop and
    the thread goes on: waiting for them cost two more thread switches per move, and
    the thread. Elsewhere (a request, a Celery task) this waits until they are sent; a
    Celery task's through its process's own event loop (``pushes_from_own_loop``).
    """
    loop = serving_loop()
    if loop is None or loop.is_closed():
        own = _process.get()
        if own is None:
            async_to_sync(send_logged)(events)
            return
        sending = asyncio.run_coroutine_threadsafe(_send_logged_again_on_failure(events), own)
        try:
            sending.result(PROCESS_PUSH_PATIENCE)
        except TimeoutError:
            sending.cancel()
            log.warning("push still out after %ss, clients will resync", PROCESS_PUSH_PATIENCE)
        return
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes.setdefault(loop, _Outbox(loop))
    try:
        outbox.hand_over(events)
    except RuntimeError as error:  # the loop closed meanwhile: the server is stopping
        log.warning("push not handed over, clients will resync: %r", error)


#: Frames that are snapshots of the game: a socket notes the newest it was sent.
SNAPSHOT_TYPES = frozenset(("state", "move", "takeback"))


def snapshot_order(frame: dict) -> tuple[int, int]:
    """How snapshots are ordered (PROTOCOL.md, "Keeping in step"): takebacks, then ply."""
    return frame.get("takebacks") or 0, frame.get("ply") or 0


def frame_event(frame: dict) -> dict:
    """The channel event that carries ``frame``: its JSON text, written once for every
    socket it reaches, and for a snapshot its order (takebacks, ply)."""
    order = None
    if frame.get("type") in SNAPSHOT_TYPES:
        order = list(snapshot_order(frame))
    return {"type": "frame", "text": frame_text(frame), "order": order}


async def send_each_async(groups: list[str], frame: dict) -> None:
    """``send_each`` from the event loop (a socket's own push); a failure is logged."""
    event = frame_event(frame)
    await send_logged([(group, event) for group in groups])


def push_frames(frames: list[tuple[str, dict | Callable[[], dict]]]) -> None:
    """Send each ``(group, frame)``: every socket of the group gets the frame as it is.

    A frame may come as how to build it (``games.frames.game_frames``): it is built only
    for a group with a socket in it. Each distinct frame is written as JSON once, however
    many groups and sockets get it.
    """
    events: dict[int, Event] = {}

    def event_of(frame) -> Event:
        if callable(frame):
            return lambda: frame_event(frame())
        return events.get(id(frame)) or events.setdefault(id(frame), frame_event(frame))

    push([(group, event_of(frame)) for group, frame in frames])


def send_each(groups: list[str], frame: dict) -> None:
    """Send ``frame`` to every socket of each of ``groups``."""
    push_frames([(group, frame) for group in groups])


def send_channels(channels: list[str], frame: dict) -> None:
    """Send ``frame`` to each of ``channels`` (single sockets, e.g. the lobby socket of a
    seek); a failure is logged, never raised."""

    async def send_all() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event = frame_event(frame)
        for channel in channels:
            await layer.send(channel, event)

    try:
        async_to_sync(send_all)()
    except Exception as error:
        log.warning("send to %d sockets failed: %r", len(channels), error)


def lobby_changed() -> None:
    """Tell lobby sockets the open tables changed; each fetches the tables it may see."""
    push([(LOBBY_GROUP, {"type": "lobby.changed"})])


def tournament_changed(tournament_id: int, version: int) -> None:
    """Tell a tournament's page its ``version`` changed; it fetches its live part again."""
    push([(tournament_group(tournament_id), {"type": "tournament.changed", "version": version})])
