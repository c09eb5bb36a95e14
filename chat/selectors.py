"""Reads of chat: a room's history as one user may see it, and their mutes."""

from __future__ import annotations

from accounts.selectors import blocked_ids
from chat.models import Message, Mute
from chat.rooms import Room

#: How many of a room's latest messages a page or a socket is sent.
HISTORY_LENGTH = 100


def muted_ids(user) -> set[int]:
    """The ids of the users whose messages ``user`` is not shown: those they muted, and
    those they blocked (``accounts.Block``: a blocked player's chat does not reach them).
    None for a visitor."""
    if user is None or not user.is_authenticated:
        return set()
    muted = set(Mute.objects.filter(user=user).values_list("muted_id", flat=True))
    return muted | blocked_ids(user=user)


def muted_names(user) -> list[str]:
    """The usernames ``user`` muted, sorted."""
    if user is None or not user.is_authenticated:
        return []
    return sorted(
        Mute.objects.filter(user=user).values_list("muted__username", flat=True), key=str.lower
    )


def message_data(message: Message) -> dict:
    """A message as every client sees it: its id, author, time and text, nothing else."""
    return {
        "id": message.pk,
        "author": message.author.username,
        "at": message.created_at.isoformat(),
        "text": message.text,
    }


def room_history(room: Room, user) -> list[Message]:
    """The latest messages of ``room`` that ``user`` sees: not removed, not by one they muted."""
    latest = (
        Message.objects.filter(room=room.key, removed_at__isnull=True)
        .exclude(author_id__in=muted_ids(user))
        .select_related("author")
        .order_by("-created_at", "-id")[:HISTORY_LENGTH]
    )
    return list(reversed(latest))


def rooms_history(rooms: list[Room], user) -> list[dict]:
    """Each room ``user`` may read with its history, as sent in a ``chat_history`` frame."""
    return [
        {
            "room": room.name,
            "title": room.title,
            "closed": room.closed,
            "messages": [message_data(message) for message in room_history(room, user)],
        }
        for room in rooms
    ]
