"""The replay's chat: a game's rooms the viewer may read, with their history."""

from django import template

from chat.rooms import rooms_for
from chat.selectors import room_history

register = template.Library()


@register.inclusion_tag("chat/_history.html", takes_context=True)
def chat_replay(context, game_id: int):
    """The game's chat as ``context``'s user may read it (the players' room only to players)."""
    user = context.get("user")
    rooms = [
        {"name": room.name, "title": room.title, "messages": room_history(room, user)}
        for room in rooms_for("game", game_id, user)
    ]
    return {"rooms": rooms if any(room["messages"] for room in rooms) else []}
