"""The tournament page's websocket: a hint that the tournament changed, with its version.

The database holds the truth; a client that hears a newer version fetches the
page's live part again over HTTP (as lichess does), so a lost message costs nothing.
"""

from accounts.sockets import SiteConsumer
from chat.sockets import chat_frame, chat_receive, chat_request
from kit.socket_db import db
from tournaments.models import Tournament
from tournaments.selectors import tournament_group


@db
def _version(tournament_id: int) -> int | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()


class TournamentConsumer(SiteConsumer):
    """Anyone may watch a tournament: nothing sent here is secret. Its chat speaks the
    socket's language (``SocketLanguage``)."""

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        version = await _version(self.tournament_id)
        if version is None:
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "version", "version": version})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def tournament_changed(self, event):
        await self.send_json({"type": "version", "version": event["version"]})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        chat = chat_request(text_data)
        if chat is not None:
            await chat_receive(self, chat, kind="tournament", place_id=self.tournament_id)

    chat_frame = chat_frame
