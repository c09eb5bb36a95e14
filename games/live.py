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
    """Send ``event`` to ``group``; a failure is logged, never raised.

    Pushes run after the change was committed: the move stands whatever happens
    here, and a client that missed the push catches up on its next ping or resync
    (docs/PROTOCOL.md, "Keeping in step"). Raising would turn a committed move
    into an HTTP 500 or close the mover's socket.
    """
    try:
        _group_send_now(group, event)
    except Exception as error:
        log.warning("push to %s failed, clients will resync: %r", group, error)


def _group_send_now(group: str, event: dict) -> None:
    send_now = async_to_sync(get_channel_layer().group_send)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send_now(group, event)
        return
    # A synchronous caller inside a running event loop (Playwright's, in the browser tests)
    # may not block that loop: the send runs on a thread of its own.
    thread = threading.Thread(target=send_now, args=(group, event))
    thread.start()
    thread.join()


def send(group: str, message: dict) -> None:
    """Send ``message`` (a JSON-ready frame) to every socket in ``group``."""
    _group_send(group, {"type": "frame", "frame": message})


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
    for group, frame in frames:
        send(group, frame)


def lobby_changed() -> None:
    """Tell lobby sockets the open tables changed; each fetches the tables it may see."""
    _group_send(LOBBY_GROUP, {"type": "lobby.changed"})
