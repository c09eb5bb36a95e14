"""``/ws/me/``: a signed-in player's own events on every page (docs/PROTOCOL.md, "The
player's socket"): challenges, games starting, correspondence turns. Thin: it joins the
player's group and forwards what ``games.user_events`` sends there."""

from __future__ import annotations

import asyncio

from games import live, selectors
from games.consumers import (
    CLOSE_NO_GAME,
    _Limits,
    _membership_end,
    _membership_renew,
    _refuse_and_close,
    _RenewingConsumer,
    _socket_claim,
    _socket_release,
    db,
)
from topiary_site import metrics


class UserConsumer(_RenewingConsumer):
    """The player's socket: sends the challenges waiting for them, then their events."""

    async def connect(self):
        self.user = self.scope.get("user")
        self.limits = _Limits()
        if self.user is None or not self.user.is_authenticated:
            # Nobody to send events to: the client stops on this code (as for a missing game).
            await self.accept()
            await self.close(code=CLOSE_NO_GAME)
            return
        if not _socket_claim(self):
            await self.accept()
            await _refuse_and_close(self, None, "too_many_sockets", "too many open sockets")
            return
        self.group = live.user_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.membership = asyncio.create_task(_membership_renew(self, self.group))
        await self.accept()
        metrics.OPEN_SOCKETS.labels("me").inc()
        await self._send_challenges()

    async def disconnect(self, code):
        _socket_release(self)
        if hasattr(self, "membership"):
            metrics.OPEN_SOCKETS.labels("me").dec()
            await _membership_end(self, self.group)

    async def _send_challenges(self):
        challenges = await db(selectors.challenges_to)(self.user)
        await self.send_json({"type": "challenges", "challenges": challenges})

    async def frame(self, event):
        await self.send_json(event["frame"])

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if getattr(self, "closing", False):
            return
        if not self.limits.message_allowed():
            await _refuse_and_close(
                self, None, "rate_limited", "too many messages: slow down and reconnect"
            )
            return
        # Anything (a hello after reconnecting) is answered with the challenges waiting now.
        await self._send_challenges()
