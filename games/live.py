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
import threading
import weakref
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from topiary_site.socket_db import serving_loop
from topiary_site.wire import frame_text

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


async def _send_all(events: list[tuple[str, Event]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:
        # The Redis layer sends them all in two round trips (topiary_site.channel_layer),
        # and builds a lazy event only for a group it finds members in.
        await send_many(events)
        return
    for group, event in events:
        await layer.group_send(group, event() if callable(event) else event)


async def send_logged(events: list[tuple[str, Event]]) -> None:
    """Send each ``(group, event)`` from the event loop; a failure is logged, never raised."""
    try:
        await _send_all(events)
    except Exception as error:
        groups = ", ".join(group for group, _ in events)
        log.warning("push to %s failed, clients will resync: %r", groups, error)


class _Outbox:
    """Pushes handed to an event loop by the socket database threads, sent from the loop in
    the order they were handed over; what queues up while a send is out goes in the next
    send together.

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
        self.waiting.append(events)
        if self.sending is None:
            self.sending = self.loop.create_task(self._send_waiting())

    async def _send_waiting(self) -> None:
        try:
            while self.waiting:
                pushes, self.waiting = self.waiting, []
                try:
                    await send_logged([event for events in pushes for event in events])
                finally:
                    for _ in pushes:
                        self.room.release()
        finally:
            self.sending = None


#: Pushes a process's socket threads may have waiting or out at once (``_Outbox``).
OUTBOX_LIMIT = 16
_outboxes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def push(events: list[tuple[str, Event]]) -> None:
    """Send each ``(group, event)``; a failure is logged, never raised.

    Pushes run after the change was committed: the change stands whatever happens
    here, and a client that missed the push catches up on its next ping or resync
    (docs/PROTOCOL.md, "Keeping in step"). Raising would turn a committed move
    into an HTTP 500 or close the mover's socket. All of a change's sends go
    through one hop to the event loop, not one per group.

    On a socket's database thread the sends are handed to the socket's event loop and
    the thread goes on: waiting for them cost two more thread switches per move, and
    the thread. Elsewhere (a request, a Celery task) this waits until they are sent.
    """
    loop = serving_loop()
    if loop is None or loop.is_closed():
        async_to_sync(send_logged)(events)
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
