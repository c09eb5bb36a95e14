"""``/ws/me/``: a signed-in player's own events on every page (docs/PROTOCOL.md, "The
player's socket"): challenges, games starting, correspondence turns. Thin: it joins the
player's group and forwards what ``games.user_events`` sends there, and while it is open
the player shows online to those who follow them (``accounts.presence``)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async

from accounts.presence import ONLINE_RENEW, online_note
from games import live, selectors
from games.consumers import CLOSE_NO_GAME, LobbyConsumer, db

log = logging.getLogger(__name__)


async def _online_while_open(user_id: int) -> None:
    """Note the player online (``accounts.presence``) for as long as the socket is open."""
    note = sync_to_async(online_note, thread_sensitive=False)
    while True:
        try:
            await note(user_id)
        except Exception:  # a Redis blink: the next renewal tries again
            log.warning("could not note a player online")
        await asyncio.sleep(ONLINE_RENEW)


class UserConsumer(LobbyConsumer):
    """The player's socket: the lobby socket's plumbing (limits, renewal), another group.

    On connect, and answering any message (a hello after reconnecting), it sends the
    challenges waiting for the player; then their events as they happen.
    """

    label = "me"

    def group_for(self) -> str:
        return live.user_group(self.user.pk)

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Nobody to send events to: the client stops on this code (as for a missing game).
            await self.accept()
            await self.close(code=CLOSE_NO_GAME)
            return
        await super().connect()
        if hasattr(self, "membership"):
            self.presence = asyncio.create_task(_online_while_open(user.pk))

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            presence = getattr(self, "presence", None)
            if presence is not None:
                presence.cancel()

    async def _send_tables(self):
        challenges = await db(selectors.challenges_to)(self.user)
        await self.send_json({"type": "challenges", "challenges": challenges})

    async def _closed(self):
        """Nothing to withdraw: seeks belong to lobby sockets."""

    async def _request(self, request, content) -> None:
        await self._send_tables()
