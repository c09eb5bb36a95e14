"""Websockets of live play (docs/PROTOCOL.md): thin, every write through games.services.

A game socket joins the group of its viewer's seat (or the spectators' group),
so every frame it receives was built from that viewer's own engine view.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import live, selectors, services
from games.models import Game
from games.services import Refused
from topiary_site import logs, metrics

#: Socket close code when the game does not exist.
CLOSE_NO_GAME = 4404

ACTIONS = {
    "move": lambda game_id, user, message: services.move_play(
        game_id=game_id, user=user, ply=message.get("ply"), move=message.get("move")
    ),
    "resign": lambda game_id, user, message: services.game_resign(game_id=game_id, user=user),
    "abort": lambda game_id, user, message: services.game_abort(game_id=game_id, user=user),
    "claim": lambda game_id, user, message: services.game_claim(game_id=game_id, user=user),
    "flag": lambda game_id, user, message: services.clock_check(game_id=game_id),
    "takeback": lambda game_id, user, message: services.takeback_offer(
        game_id=game_id, user=user, ply=message.get("ply")
    ),
    "takeback_accept": lambda game_id, user, message: services.takeback_answer(
        game_id=game_id, user=user, accept=True
    ),
    "takeback_decline": lambda game_id, user, message: services.takeback_answer(
        game_id=game_id, user=user, accept=False
    ),
}


def _seat_for(game_id: int, user) -> tuple[bool, int | None]:
    try:
        _, seats = selectors.game_with_seats(game_id)
    except Game.DoesNotExist:
        return False, None
    seat = selectors.seat_of(seats, user)
    return True, None if seat is None else seat.index


def _act(game_id: int, user, message: dict) -> dict | None:
    """Run one client request; the refusal frame if it was refused."""
    user_token = logs.user_id.set(getattr(user, "pk", None))
    try:
        with logs.about_game(game_id), metrics.MOVE_ROUND_TRIP.time():
            ACTIONS[message["type"]](game_id, user, message)
    except Refused as refusal:
        metrics.REFUSALS.labels(refusal.code).inc()
        ply = Game.objects.filter(pk=game_id).values_list("ply", flat=True).first()
        return {
            "type": "refused",
            "ply": ply,
            "request": message["type"],
            "code": refusal.code,
            "reason": refusal.reason,
        }
    finally:
        logs.user_id.reset(user_token)
    return None


def _presence(game_id: int, user, online: bool) -> None:
    """Note the player's sign of life and tell every socket of the game."""
    if not services.seat_seen(game_id=game_id, user=user):
        return
    game, seats = selectors.game_with_seats(game_id)
    seat = selectors.seat_of(seats, user)
    frame = {
        "type": "presence",
        "ply": game.ply,
        "takebacks": game.takebacks,
        "seat": seat.index,
        "online": online,
    }
    for group in live.everyone_groups(game_id, len(seats)):
        live.send(group, frame)


def _pong(game_id: int, user) -> dict:
    # A heartbeat also says "online" to everyone: another tab of this player may have closed.
    _presence(game_id, user, True)
    ply, takebacks = Game.objects.filter(pk=game_id).values_list("ply", "takebacks").first()
    return {"type": "pong", "ply": ply, "takebacks": takebacks}


class GameConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/game/<id>/``: a player's own view or the public view, live."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        exists, self.seat = await database_sync_to_async(_seat_for)(self.game_id, self.user)
        if not exists:
            await self.close(code=CLOSE_NO_GAME)
            return
        if self.seat is None:
            self.group = live.watchers_group(self.game_id)
        else:
            self.group = live.seat_group(self.game_id, self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        metrics.OPEN_SOCKETS.labels("game").inc()
        await self._send_state()
        if self.seat is not None:
            await database_sync_to_async(_presence)(self.game_id, self.user, True)

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        metrics.OPEN_SOCKETS.labels("game").dec()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(_presence)(self.game_id, self.user, False)

    async def _send_state(self):
        frame = await database_sync_to_async(selectors.game_state_for)(self.game_id, self.user)
        await self.send_json(frame)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in ("hello", "resync"):
            await self._send_state()
        elif kind == "ping":
            await self.send_json(await database_sync_to_async(_pong)(self.game_id, self.user))
        elif kind in ACTIONS:
            refusal = await database_sync_to_async(_act)(self.game_id, self.user, content)
            if refusal is not None:
                await self.send_json(refusal)
        else:
            await self.send_json(
                {
                    "type": "refused",
                    "ply": None,
                    "request": kind,
                    "code": "bad_request",
                    "reason": f"unknown message type {kind!r}",
                }
            )

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except ValueError:
            await self.send_json(
                {
                    "type": "refused",
                    "ply": None,
                    "request": None,
                    "code": "bad_request",
                    "reason": "messages are JSON objects",
                }
            )

    async def frame(self, event):
        await self.send_json(event["frame"])


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/lobby/``: the open tables this user may see, sent again whenever they change."""

    async def connect(self):
        self.user = self.scope.get("user")
        await self.channel_layer.group_add(live.LOBBY_GROUP, self.channel_name)
        await self.accept()
        metrics.OPEN_SOCKETS.labels("lobby").inc()
        await self._send_tables()

    async def disconnect(self, code):
        metrics.OPEN_SOCKETS.labels("lobby").dec()
        await self.channel_layer.group_discard(live.LOBBY_GROUP, self.channel_name)

    async def _send_tables(self):
        tables = await database_sync_to_async(selectors.tables_open)(self.user)
        await self.send_json({"type": "tables", "tables": tables})

    async def lobby_changed(self, event):
        await self._send_tables()

    async def receive_json(self, content, **kwargs):
        await self._send_tables()
