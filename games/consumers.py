"""Websockets of live play (docs/PROTOCOL.md): thin, every write through games.services.

A game socket joins the group of its viewer's seat (or the spectators' group),
so every frame it receives was built from that viewer's own engine view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.sockets import SiteConsumer
from chat.sockets import chat_frame, chat_receive
from games import live, seek_selectors, seeks, selectors, services
from games.actions import SOCKET_ACTIONS, action_run, refused_frame
from games.models import Game
from kit import metrics
from kit.socket_db import db, db_urgent

log = logging.getLogger(__name__)

#: Socket close code when the game does not exist.
CLOSE_NO_GAME = 4404
#: Socket close code for a socket over a limit: messages per window, or sockets per user.
CLOSE_TOO_MANY = 4429

#: Open game and lobby sockets of each signed-in user in this server process.
_sockets_open: Counter = Counter()


def _seat_for(game_id: int, user) -> tuple[bool, int | None, int]:
    """(the game exists, the user's seat index or None, how many seats the game has)."""
    seats = selectors.seat_users(game_id)
    if not seats and not Game.objects.filter(pk=game_id).exists():
        return False, None, 0
    seat = None
    if user is not None and user.is_authenticated:
        seat = next((index for index, seat_user in seats if seat_user == user.pk), None)
    return True, seat, len(seats)


def _opened(game_id: int, user, seat: int | None) -> tuple[dict, dict | None]:
    """A new socket's snapshot and, for a player's, the presence frame its arrival makes:
    one trip to the database threads for both (a storm of connects is many of them)."""
    presence = None
    if seat is not None:
        _, _, presence = services.presence_record(
            game_id=game_id, user=user, online=True, seat=seat
        )
    return selectors.game_state_for(game_id, user, hold=seat is not None), presence


def _closed(game_id: int, user, seat: int) -> dict | None:
    """The presence frame of a player's socket closing (its sign of life noted)."""
    return services.presence_record(game_id=game_id, user=user, online=False, seat=seat)[2]


def _lobby_lists(user, channel: str) -> tuple[dict, dict]:
    """The lobby socket's ``tables`` and ``seeks`` frames: one trip to the database threads
    for both (every lobby socket asks again whenever a table or a seek changes)."""
    tables = {"type": "tables", "tables": selectors.tables_open(user)}
    return tables, seek_selectors.seeks_open(user, channel)


def _pong(game_id: int, user, seat: int | None, seat_count: int) -> dict:
    # A heartbeat also says "online" to everyone: another tab of this player may have closed.
    if seat is None:
        ply, takebacks = services.game_counts(game_id)
    else:
        ply, takebacks = services.presence_note(
            game_id=game_id, user=user, online=True, seat=seat, seat_count=seat_count
        )
    return {"type": "pong", "ply": ply, "takebacks": takebacks}


def _bad_request(request, reason: str) -> dict:
    return refused_frame(request if isinstance(request, str) else None, "bad_request", reason)


class _Limits:
    """A socket's limits: messages per window (like lichess's), sockets per user."""

    def __init__(self):
        self.times: deque[float] = deque()

    def message_allowed(self) -> bool:
        now = time.monotonic()
        window = settings.SOCKET_MESSAGE_WINDOW
        while self.times and self.times[0] <= now - window:
            self.times.popleft()
        self.times.append(now)
        return len(self.times) <= settings.SOCKET_MESSAGE_LIMIT


async def _refuse_and_close(consumer, request, code: str, reason: str) -> None:
    consumer.closing = True
    await consumer.send_json(refused_frame(request, code, reason))
    await consumer.close(code=CLOSE_TOO_MANY)


def _socket_claim(consumer) -> bool:
    """Count this socket against its user's cap; False if the user is at the cap."""
    user = consumer.scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    if _sockets_open[user.pk] >= settings.SOCKETS_PER_USER:
        return False
    _sockets_open[user.pk] += 1
    consumer.counted_user = user.pk
    return True


def _socket_release(consumer) -> None:
    pk = getattr(consumer, "counted_user", None)
    if pk is not None:
        _sockets_open[pk] -= 1
        if _sockets_open[pk] <= 0:
            del _sockets_open[pk]
        consumer.counted_user = None


async def _membership_renew(consumer, group: str) -> None:
    """Renew the socket's group membership well within the layer's group expiry.

    Memberships expire (settings.CHANNEL_GROUP_EXPIRY) so that a socket whose
    server died before it could leave its group stops being sent to; a live
    socket renews its own for as long as it stays open.
    """
    every = max(1.0, settings.CHANNEL_GROUP_EXPIRY / 3)
    while True:
        await asyncio.sleep(every)
        try:
            await consumer.channel_layer.group_add(group, consumer.channel_name)
        except Exception:  # a Redis blink: the next renewal tries again
            log.warning("could not renew %s in group %s", consumer.channel_name, group)


async def _membership_end(consumer, group: str) -> None:
    """Leave the group; a failure only leaves an entry that expires on its own."""
    renewal = getattr(consumer, "membership", None)
    if renewal is not None:
        renewal.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewal
    try:
        await consumer.channel_layer.group_discard(group, consumer.channel_name)
    except Exception as error:
        log.warning("could not leave group %s (%s); the entry expires", group, error)


class _RenewingConsumer(SiteConsumer):
    """A consumer whose membership renewal ends with it, even if it ends by a crash; it
    speaks its socket's language (``SocketLanguage``)."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            renewal = getattr(self, "membership", None)
            if renewal is not None:
                renewal.cancel()
            _socket_release(self)

    async def _message_admitted(self) -> bool:
        """False for a message to drop: the socket is closing, or this message is over its
        limit (the socket is then refused and closed)."""
        if getattr(self, "closing", False):
            return False
        if not self.limits.message_allowed():
            await _refuse_and_close(
                self, None, "rate_limited", _("too many messages: slow down and reconnect")
            )
            return False
        return True


class GameConsumer(_RenewingConsumer):
    """``/ws/game/<id>/``: a player's own view or the public view, live."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.limits = _Limits()
        #: (takebacks, ply) of the newest snapshot this socket was sent.
        self.sent = (-1, -1)
        # Accept first: a close before the handshake is only an HTTP 403 to the client (not
        # the close codes docs/PROTOCOL.md promises), and a storm of connects waits for the
        # database threads below; a client should not wait for them to see its socket open.
        await self.accept()
        if not _socket_claim(self):
            await _refuse_and_close(self, None, "too_many_sockets", _("too many open sockets"))
            return
        exists, self.seat, self.seat_count = await db(_seat_for)(self.game_id, self.user)
        if not exists:
            await self.close(code=CLOSE_NO_GAME)
            return
        if self.seat is None:
            self.group = live.watchers_group(self.game_id)
        else:
            self.group = live.seat_group(self.game_id, self.seat)
        # Joined before the snapshot is read: no change can fall between the two.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.membership = asyncio.create_task(_membership_renew(self, self.group))
        metrics.OPEN_SOCKETS.labels("game").inc()
        snapshot, presence = await db(_opened)(self.game_id, self.user, self.seat)
        await self._send_snapshot(snapshot)
        await self._presence_push(presence)

    async def disconnect(self, code):
        _socket_release(self)
        if not hasattr(self, "group"):
            return
        metrics.OPEN_SOCKETS.labels("game").dec()
        await _membership_end(self, self.group)
        if self.seat is not None:
            await self._presence_push(await db(_closed)(self.game_id, self.user, self.seat))

    async def _presence_push(self, presence: dict | None) -> None:
        """Send every socket of the game this player's ``presence`` frame (None: nothing)."""
        if presence is not None:
            groups = live.everyone_groups(self.game_id, self.seat_count)
            await live.send_each_async(groups, presence)

    async def _send_state(self):
        await self._send_snapshot(await db(selectors.game_state_for)(self.game_id, self.user))

    async def _send_snapshot(self, frame: dict) -> None:
        self.sent = max(self.sent, live.snapshot_order(frame))
        await self.send_json(frame)

    async def receive_json(self, content, **kwargs):
        request = content.get("type") if isinstance(content, dict) else None
        if not isinstance(request, str):
            await self.send_json(_bad_request(None, _("a message needs a type (a string)")))
        elif request in ("hello", "resync"):
            await self._send_state()
        elif request == "ping":
            pong = await db(_pong)(self.game_id, self.user, self.seat, self.seat_count)
            if live.snapshot_order(pong) > self.sent:
                # The game moved on and this socket has not been sent it (a push still
                # queued, or lost): send the snapshot first, so the pong is never newer
                # than what the socket holds and a client need not resync on its own.
                await self._send_state()
            await self.send_json(pong)
        elif request in SOCKET_ACTIONS:
            refusal = await db_urgent(action_run)(self.game_id, self.user, request, content)
            if refusal is not None:
                await self.send_json(refusal)
        elif request.startswith("chat_"):
            await chat_receive(self, content, kind="game", place_id=self.game_id)
        else:
            await self.send_json(
                _bad_request(request, _("unknown message type %(type)r") % {"type": request})
            )

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not await self._message_admitted():
            return
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except ValueError:
            await self.send_json(_bad_request(None, _("messages are JSON objects")))

    async def frame(self, event):
        # The frame comes written as JSON (games.live.frame_event): sent as it is.
        if event["order"] is not None:
            self.sent = max(self.sent, tuple(event["order"]))
        await self.send(text_data=event["text"])

    chat_frame = chat_frame


class LobbyConsumer(_RenewingConsumer):
    """``/ws/lobby/``: the open tables this user may see, sent again whenever they change,
    and the seeks of quick pairing (docs/PROTOCOL.md, "Seeks")."""

    #: The metrics label of this kind of socket.
    label = "lobby"

    def group_for(self) -> str:
        return live.LOBBY_GROUP

    async def connect(self):
        self.user = self.scope.get("user")
        self.limits = _Limits()
        if not _socket_claim(self):
            await self.accept()
            await _refuse_and_close(self, None, "too_many_sockets", _("too many open sockets"))
            return
        self.group = self.group_for()
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.membership = asyncio.create_task(_membership_renew(self, self.group))
        await self.accept()
        metrics.OPEN_SOCKETS.labels(self.label).inc()
        await self._send_tables()

    async def disconnect(self, code):
        _socket_release(self)
        if hasattr(self, "membership"):
            metrics.OPEN_SOCKETS.labels(self.label).dec()
            await _membership_end(self, self.group)
            await self._closed()

    async def _closed(self):
        # A seek lives as long as the page that placed it (games/seeks.py).
        await db(seeks.seek_cancel)(user=self.user, channel=self.channel_name)

    async def _send_tables(self):
        for frame in await db(_lobby_lists)(self.user, self.channel_name):
            await self.send_json(frame)

    async def lobby_changed(self, event):
        await self._send_tables()

    async def frame(self, event):
        # Written as JSON once for every socket it reaches (games.live.frame_event).
        await self.send(text_data=event["text"])

    async def _seek(self, request: str, content: dict) -> None:
        """Place or withdraw this page's seek; a refusal is answered, success is seen in
        the ``seeks`` frame every lobby socket gets (or a ``paired`` frame)."""
        try:
            if request == "seek":
                await db(seeks.seek_place)(
                    user=self.user,
                    kind=content.get("kind"),
                    players=content.get("players"),
                    time_control=content.get("time_control"),
                    rated=content.get("rated", True),
                    rating_range=content.get("range"),
                    bots_after=content.get("bots_after"),
                    channel=self.channel_name,
                )
            else:
                await db(seeks.seek_cancel)(user=self.user, channel=self.channel_name)
        except services.Refused as refusal:
            await self.send_json(refused_frame(request, refusal.code, refusal.reason))

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not await self._message_admitted():
            return
        try:
            content = json.loads(text_data or "")
        except ValueError:
            content = None
        await self._request(content.get("type") if isinstance(content, dict) else None, content)

    async def _request(self, request, content) -> None:
        if request in ("seek", "seek_cancel"):
            await self._seek(request, content)
        elif isinstance(request, str) and request.startswith("chat_"):
            await chat_receive(self, content, kind="lobby")
        else:
            await self._send_tables()

    chat_frame = chat_frame
