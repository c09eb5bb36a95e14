"""The player's own chat messages and mutes in their data export (``accounts.hooks``)."""

from __future__ import annotations

from accounts.hooks import export_part
from chat.models import Message
from chat.selectors import muted_names


@export_part("chat")
def chat_messages(user) -> list[tuple[str, object]]:
    messages = [
        {
            "room": message.room,
            "at": message.created_at.isoformat(),
            "text": message.text,
            "removed": message.removed_at is not None,
        }
        for message in Message.objects.filter(author=user)
    ]
    return [("chat.json", {"messages": messages, "muted": muted_names(user)})]
