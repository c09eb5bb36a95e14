"""The API's NDJSON streams (docs/API.md, "Streams"), pushed from the channel layer.

A game stream is a member of the same group as its viewer's websocket (the seat's
group, or the spectators'), so it is handed the very frames the sockets get, each
built from that viewer's engine view (``games.frames``), the moment the change is
committed. It passes them on one per ply, in order, each once, by the rule of
docs/PROTOCOL.md ("Keeping in step"): a frame that comes early is held back a moment
for the ones before it, and if they do not come (a push lost, a queue overflowing)
the stream reads the game afresh and sends a ``state`` frame instead of skipping a
ply silently.

The event stream is a member of the account's own group (``/ws/me/``'s), where the
writer tells it of challenges, games starting and ending (``games.user_events``).

Both send a blank keep-alive line every ``KEEPALIVE_S`` seconds whatever happens
(the wait for a push has that timeout), and at each one look at the database: the
token still live, the player's sign of life at the table, and nothing missed. They
hold no database connection while they wait (``_released``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import orjson
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext_lazy

from api import selectors
from api.models import ApiToken
from games import live
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game

#: Seconds between two keep-alive lines (docs/API.md promises 10).
KEEPALIVE_S = 10.0
#: Seconds a frame that came ahead of its turn waits for the frames before it, and a
#: change the database shows waits for its push, before the stream resyncs.
GAP_PATIENCE_S = 1.0

log = logging.getLogger(__name__)

TOKEN_REVOKED = gettext_lazy("token revoked")
GAME_GONE = gettext_lazy("the game is gone")


def line(payload) -> bytes:
    """One NDJSON line."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS) + b"\n"


def _error_line(code: str, message, language: str) -> bytes:
    """A stream's last line: its lines are written after the view has returned, so in the
    language the request asked for, kept at the start."""
    with translation.override(language):
        return line({"type": "error", "code": code, "message": str(message)})


def _released(read):
    """``read`` made awaitable for a stream, handing its database connection back to the pool
    after each call: a stream open for hours must not hold one of the few pooled connections.
    (Inside a test's transaction the connection is kept: closing it would end the test's.)"""

    def run(*args, **kwargs):
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return sync_to_async(run)


def _token_live(token_id: int | None) -> bool:
    return token_id is None or ApiToken.objects.live().filter(pk=token_id).exists()


class _Member:
    """A stream's channel on the channel layer, a member of one group while it lives.

    Memberships expire (``CHANNEL_GROUP_EXPIRY``) unless renewed, as a socket's do: a
    stream renews its own at a keep-alive once a third of that has passed.
    """

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.group: str | None = None
        self.renewed = 0.0

    async def join(self, group: str) -> None:
        if self.channel is None:
            self.channel = await self.layer.new_channel()
        await self.layer.group_add(group, self.channel)
        self.group, self.renewed = group, time.monotonic()

    async def renew(self) -> None:
        due = time.monotonic() - self.renewed >= settings.CHANNEL_GROUP_EXPIRY / 3
        if self.group is not None and due:
            await self.join(self.group)

    async def leave(self) -> None:
        """Leave the group; a failure only leaves an entry that expires on its own."""
        group, self.group = self.group, None
        if group is not None:
            try:
                await self.layer.group_discard(group, self.channel)
            except Exception as error:  # a Redis blink: the membership expires
                log.warning(
                    "a stream could not leave group %s (%r); the entry expires", group, error
                )

    async def receive(self, timeout: float) -> dict | None:
        """The next push, or None if none comes within ``timeout`` seconds."""
        try:
            return await asyncio.wait_for(self.layer.receive(self.channel), max(timeout, 0))
        except TimeoutError:
            return None

    async def end(self) -> None:
        await self.leave()
        closed = getattr(self.layer, "channel_closed", None)
        if closed is not None and self.channel is not None:
            closed(self.channel)


def _next_keepalive(due: float, now: float) -> float:
    """When the keep-alive after the one due at ``due`` is due: every ``KEEPALIVE_S`` on
    the stream's own beat, however long the work between two took."""
    return max(due + KEEPALIVE_S, now + KEEPALIVE_S / 2)


def _pushed_frame(event: dict) -> dict | None:
    """The frame a push carries (``games.live.frame_event``), or None for anything else."""
    if event.get("type") != "frame":
        return None
    return orjson.loads(event["text"])


# --------------------------------------------------------------------------- game stream


def _over(frame: dict) -> bool:
    """The game's last frame: aborted, or finished and scored."""
    status = frame["status"]
    return status == Game.Status.ABORTED or (
        status == Game.Status.FINISHED and frame["result"] is not None
    )


def _mark(frame: dict) -> tuple:
    """What the keep-alive compares with the database: order, status, scored."""
    return (*live.snapshot_order(frame), frame["status"], frame["result"] is not None)


def _viewer_frame(game_id: int, user) -> dict | None:
    """The viewer's ``state`` frame now, or None if the game is gone."""
    try:
        return game_selectors.game_state_for(game_id, user)
    except Game.DoesNotExist:
        return None


def _game_check(game_id: int, user, token_id: int | None, seen: bool) -> tuple[bool, tuple | None]:
    """One trip at a keep-alive: (the token is live, the game's mark or None if it is gone);
    ``seen``: the player's open stream is noted as a sign of life at the table."""
    if not _token_live(token_id):
        return False, None
    fingerprint = selectors.game_fingerprint(game_id)
    if fingerprint is None:
        return True, None
    if seen:
        game_services.seat_seen(game_id=game_id, user=user)
    status, ply, takebacks, _offer, scored = fingerprint[:5]
    return True, (takebacks, ply, status, scored)


class _GameStream:
    """One viewer's frames of one game, in order (docs/PROTOCOL.md, "Keeping in step")."""

    def __init__(self, game_id: int, user, token_id: int | None, language: str):
        self.game_id, self.user, self.token_id, self.language = game_id, user, token_id, language
        self.member = _Member()
        #: The newest frame passed on: its order, its mark.
        self.sent: tuple[int, int] = (-1, -1)
        self.sent_mark: tuple = ()
        #: Frames that came before their turn, and since when the stream waits for a gap.
        self.early: list[dict] = []
        self.waiting_since: float | None = None
        #: The game's mark in the database at the last keep-alive, while no frame matches it.
        self.database_mark: tuple | None = None
        self.viewer: int | None = None

    async def lines(self) -> AsyncIterator[bytes]:
        frame_now = _released(_viewer_frame)
        try:
            # Joined before the first frame is read: no change can fall between the two.
            exists, seat = await _released(_seat_of)(self.game_id, self.user)
            if not exists:
                yield _error_line("not_found", GAME_GONE, self.language)
                return
            await self.member.join(self._group(seat))
            frame = await frame_now(self.game_id, self.user)
            if frame is None:
                yield _error_line("not_found", GAME_GONE, self.language)
                return
            self._passed(frame)
            yield line(frame)
            if _over(frame):
                return
            keepalive_at = time.monotonic() + KEEPALIVE_S
            while True:
                until = keepalive_at
                if self.waiting_since is not None:
                    until = min(until, self.waiting_since + GAP_PATIENCE_S)
                event = await self.member.receive(until - time.monotonic())
                now = time.monotonic()
                out: list[dict] = []
                pushed = _pushed_frame(event) if event is not None else None
                if self._for_this_view(pushed):
                    if not await _released(_token_live)(self.token_id):
                        yield _error_line("unauthorized", TOKEN_REVOKED, self.language)
                        return
                    out += self._arrived(pushed, now)
                if now >= keepalive_at:
                    # On time, before the look at the database (which may be slow).
                    keepalive_at = _next_keepalive(keepalive_at, now)
                    yield b"\n"
                    live_token, mark = await _released(_game_check)(
                        self.game_id, self.user, self.token_id, self.viewer is not None
                    )
                    if not live_token:
                        yield _error_line("unauthorized", TOKEN_REVOKED, self.language)
                        return
                    if mark is None:
                        yield _error_line("not_found", GAME_GONE, self.language)
                        return
                    # Changed without a frame here yet: its push gets a gap's patience.
                    self.database_mark = mark
                    self._waiting(now)
                    await self.member.renew()
                if self.waiting_since is not None and now >= self.waiting_since + GAP_PATIENCE_S:
                    frame = await frame_now(self.game_id, self.user)
                    if frame is None:
                        yield _error_line("not_found", GAME_GONE, self.language)
                        return
                    out += self._resynced(frame)
                if out and self._seated_meanwhile(out[-1]):
                    # A spectator who took a seat (a challenge accepted): their seat's view.
                    _, seat = await _released(_seat_of)(self.game_id, self.user)
                    await self.member.leave()
                    await self.member.join(self._group(seat))
                    frame = await frame_now(self.game_id, self.user)
                    if frame is not None:
                        out = [*out[:-1], frame]
                        self._passed(frame)
                for frame in out:
                    yield line(frame)
                    if _over(frame):
                        return
        finally:
            await self.member.end()

    def _for_this_view(self, frame: dict | None) -> bool:
        """A snapshot built for this stream's viewer (not one still queued from the view
        it had before it took a seat)."""
        return (
            frame is not None
            and frame.get("type") in live.SNAPSHOT_TYPES
            and frame.get("you") == self.viewer
        )

    def _group(self, seat: int | None) -> str:
        """The group of ``seat``'s view (None: the spectators'), now this stream's view."""
        self.viewer = seat
        if seat is None:
            return live.watchers_group(self.game_id)
        return live.seat_group(self.game_id, seat)

    def _seated_meanwhile(self, frame: dict) -> bool:
        return (
            self.viewer is None
            and self.user is not None
            and any(seat["username"] == self.user.username for seat in frame["seats"])
        )

    def _passed(self, frame: dict) -> None:
        self.sent = max(self.sent, live.snapshot_order(frame))
        self.sent_mark = _mark(frame)

    def _next(self, frame: dict) -> bool | None:
        """True: pass ``frame`` on now; False: drop it (the stream has it); None: it came
        early, a frame before it has not."""
        order, kind = live.snapshot_order(frame), frame["type"]
        takebacks, ply = self.sent
        if order < self.sent or (order == self.sent and kind != "state"):
            return False
        if kind == "move":
            return True if order == (takebacks, ply + 1) else None
        if kind == "takeback":
            return True if order == (takebacks + 1, ply - 1) else None
        return True if order == self.sent else None

    def _arrived(self, frame: dict, now: float) -> list[dict]:
        """The frames to pass on now that ``frame`` arrived: it, and those it was holding up."""
        self.early.append(frame)
        out: list[dict] = []
        progress = True
        while progress:
            progress = False
            for early in list(self.early):
                verdict = self._next(early)
                if verdict is None:
                    continue
                self.early.remove(early)
                if verdict:
                    out.append(early)
                    self._passed(early)
                progress = True
        self._waiting(now)
        return out

    def _waiting(self, now: float) -> None:
        """Note since when the stream waits for a frame: one came early, or the database
        showed a change (at a keep-alive) that no frame has brought yet."""
        mark = self.database_mark
        behind = mark is not None and mark[:2] >= self.sent and mark != self.sent_mark
        if self.early or behind:
            self.waiting_since = self.waiting_since or now
        else:
            self.waiting_since, self.database_mark = None, None

    def _resynced(self, frame: dict) -> list[dict]:
        """The gap did not close: the game as it is now, and what is still newer than that."""
        self._passed(frame)
        self.waiting_since, self.database_mark = None, None
        newer = [early for early in self.early if live.snapshot_order(early) > self.sent]
        self.early = []
        out = [frame]
        for early in sorted(newer, key=live.snapshot_order):
            if self._next(early):
                out.append(early)
                self._passed(early)
        return out


def _seat_of(game_id: int, user) -> tuple[bool, int | None]:
    """(the game exists, the user's seat index or None)."""
    seats = game_selectors.seat_users(game_id)
    if not seats and not Game.objects.filter(pk=game_id).exists():
        return False, None
    seat = None
    if user is not None:
        seat = next((index for index, seat_user in seats if seat_user == user.pk), None)
    return True, seat


def game_lines(game_id: int, user, token_id: int | None, language: str) -> AsyncIterator[bytes]:
    """NDJSON lines of one game for one viewer (``user`` None: the spectators' view): the
    frame now, then one per change as pushed, a blank keep-alive line every
    ``KEEPALIVE_S``, an end once the game is over and scored."""
    return _GameStream(game_id, user, token_id, language).lines()


# --------------------------------------------------------------------------- event stream


class _Account:
    """What an account's event stream has told so far, and what the database says now."""

    def __init__(self, user):
        self.user = user
        self.challenged: set[int] = set()
        self.playing: list[int] = []

    def news(self) -> list[dict]:
        """Events the stream has not sent yet: challenges arrived, games started, games
        ended (once scored, or aborted). Each is told once."""
        now = selectors.account_events(self.user)
        events = []
        for game in now["challenges"]:
            if game.pk not in self.challenged:
                self.challenged.add(game.pk)
                events.append({"type": "challenge", "challenge": selectors.challenge_json(game)})
        for game_id in now["playing"]:
            if game_id not in self.playing:
                self.playing.append(game_id)
                events.append({"type": "gameStart", "game": {"id": game_id}})
        for game_id in [game_id for game_id in self.playing if game_id not in now["playing"]]:
            finish = selectors.game_ended(game_id)
            if finish is None or (
                finish["status"] == Game.Status.FINISHED and not finish["result"]
            ):
                continue  # still open, or finished and not yet scored: its push follows
            self.playing.remove(game_id)
            events.append({"type": "gameFinish", "game": finish})
        return events


#: The account socket's frame of a challenge gone (``games.user_events``), by its reason,
#: and the event the stream sends for it (lichess's names).
GONE_EVENTS = {"declined": "challengeDeclined", "canceled": "challengeCanceled"}
#: The account socket's frames after which the stream asks the database what is new.
NEWS_FRAMES = frozenset(("challenge", "game_started", "game_finished"))


async def _event_lines(user, token_id: int, language: str) -> AsyncIterator[bytes]:
    account = _Account(user)
    news = _released(account.news)
    token_live = _released(_token_live)
    member = _Member()
    try:
        # Joined before the first look: nothing told between the two is missed. The first
        # line, a keep-alive, says the stream is listening.
        await member.join(live.user_group(user.pk))
        yield b"\n"
        for event in await news():
            yield line(event)
        keepalive_at = time.monotonic() + KEEPALIVE_S
        while True:
            pushed = _pushed_frame(await member.receive(keepalive_at - time.monotonic()) or {})
            now = time.monotonic()
            keepalive = now >= keepalive_at
            if keepalive:
                keepalive_at = _next_keepalive(keepalive_at, now)
                yield b"\n"
            elif pushed is None:
                continue
            if not await token_live(token_id):
                yield _error_line("unauthorized", TOKEN_REVOKED, language)
                return
            events = []
            kind = pushed.get("type") if pushed else None
            if kind == "challenge_gone" and pushed.get("reason") in GONE_EVENTS:
                account.challenged.discard(pushed["game"])
                challenge = {
                    "id": pushed["game"],
                    "challenger": pushed.get("challenger"),
                    "opponent": pushed.get("opponent"),
                }
                events.append({"type": GONE_EVENTS[pushed["reason"]], "challenge": challenge})
            if kind in NEWS_FRAMES or keepalive:
                # At a keep-alive too: what a lost push would have told.
                events += await news()
            for event in events:
                yield line(event)
            if keepalive:
                await member.renew()
    finally:
        await member.end()


def event_lines(user, token_id: int, language: str) -> AsyncIterator[bytes]:
    """NDJSON lines of an account's events: a blank line once it listens, the challenges waiting
    and the games running, then each event as pushed (``challenge``, ``challengeDeclined``,
    ``challengeCanceled``, ``gameStart``, ``gameFinish``), a blank keep-alive line every
    ``KEEPALIVE_S``."""
    return _event_lines(user, token_id, language)
