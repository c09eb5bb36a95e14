"""Pushes to open websockets. The socket is a hint channel: the database holds the truth.

Groups: one per seat of a game (that seat's own view), one for spectators (the
public view) and one for the lobby. Everything sent to a seat's group is built
from that seat's engine view; spectators get the spectator view.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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


def _group_send(group: str, event: dict) -> None:
    _groups_send([(group, event)])


def _groups_send(events: list[tuple[str, dict]]) -> None:
    """Send each ``(group, event)``; a failure is logged, never raised.

    Pushes run after the change was committed: the move stands whatever happens
    here, and a client that missed the push catches up on its next ping or resync
    (docs/PROTOCOL.md, "Keeping in step"). Raising would turn a committed move
    into an HTTP 500 or close the mover's socket. All of a change's sends go
    through one hop to the event loop, not one per group.
    """
    try:
        _groups_send_now(events)
    except Exception as error:
        groups = ", ".join(group for group, _ in events)
        log.warning("push to %s failed, clients will resync: %r", groups, error)


async def _send_all(events: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    for group, event in events:
        await layer.group_send(group, event)


def _groups_send_now(events: list[tuple[str, dict]]) -> None:
    send_now = async_to_sync(_send_all)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send_now(events)
        return
    # A synchronous caller inside a running event loop (Playwright's, in the browser tests)
    # may not block that loop: the send runs on a thread of its own.
    thread = threading.Thread(target=send_now, args=(events,))
    thread.start()
    thread.join()


def send(group: str, message: dict) -> None:
    """Send ``message`` (a JSON-ready frame) to every socket in ``group``."""
    _group_send(group, {"type": "frame", "frame": message})


def send_each(groups: list[str], message: dict) -> None:
    """Send ``message`` to every socket of each of ``groups``."""
    _groups_send([(group, {"type": "frame", "frame": message}) for group in groups])


def game_changed(game_id: int, kind: str = "state", game=None, seats=None) -> None:
    """Send every socket of a game its own view of the game as it now stands.

    ``game`` and ``seats``, when given, are the objects just committed by the one
    writer: the frames are built from them instead of reading the game again.
    """
    from games.selectors import game_frames, game_frames_of

    if game is not None and seats is not None:
        frames = game_frames_of(game, seats, kind=kind)
    else:
        frames = game_frames(game_id, kind=kind)
    _groups_send([(group, {"type": "frame", "frame": frame}) for group, frame in frames])


def lobby_changed() -> None:
    """Tell lobby sockets the open tables changed; each fetches the tables it may see."""
    _group_send(LOBBY_GROUP, {"type": "lobby.changed"})
