"""Chat over the site's existing sockets (docs/PROTOCOL.md, "Chat").

The game, lobby and tournament consumers hand each ``chat_*`` request to
``chat_receive`` with their place, and name ``chat_frame`` as their handler of
``chat.frame`` events, so chat rides on their sockets and their authentication.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.utils.translation import gettext as _

from chat import selectors, services
from chat.rooms import rooms_for, write_closed
from kit.socket_db import db


def chat_request(text_data) -> dict | None:
    """The chat request in a raw socket message, or None if it is not one."""
    try:
        content = json.loads(text_data or "")
    except ValueError:
        return None
    if isinstance(content, dict) and str(content.get("type", "")).startswith("chat_"):
        return content
    return None


def _refusal(request: str, error: services.ChatRefused, room=None) -> dict:
    return {
        "type": "refused",
        "ply": None,
        "request": request,
        "room": room,
        "code": error.code,
        "reason": error.reason,
    }


def _history(kind: str, place_id, user) -> dict:
    rooms = rooms_for(kind, place_id, user)
    return {
        "type": "chat_history",
        "rooms": selectors.rooms_history(rooms, user),
        "muted": selectors.muted_names(user),
        "closed": write_closed(user),
        "max_length": settings.CHAT_MAX_LENGTH,
    }


def _answer(request: str, content: dict, kind: str, place_id, user) -> dict:
    if request == "chat_hello":
        return _history(kind, place_id, user)
    if request == "chat_send":
        services.chat_post(
            user=user,
            kind=kind,
            place_id=place_id,
            room=content.get("room"),
            text=content.get("text"),
        )
        return {}
    if request in ("chat_mute", "chat_unmute"):
        names = services.chat_mute(
            user=user, username=content.get("username"), muted=request == "chat_mute"
        )
        return {"type": "chat_muted", "muted": names}
    if request == "chat_report":
        report = services.chat_report(
            user=user,
            kind=kind,
            place_id=place_id,
            message_id=content.get("id"),
            reason=content.get("reason", ""),
        )
        return {"type": "chat_reported", "id": report.message_id}
    raise services.ChatRefused(
        "bad_request", _("unknown message type %(type)r") % {"type": request}
    )


async def chat_receive(consumer, content: dict, *, kind: str, place_id=None) -> None:
    """Answer one ``chat_*`` request of ``consumer``'s user at a place."""
    user = consumer.scope.get("user")
    request = content["type"]
    try:
        answer = await db(_answer)(request, content, kind, place_id, user)
    except services.ChatRefused as error:
        await consumer.send_json(_refusal(request, error, content.get("room")))
        return
    if answer.get("type") in ("chat_history", "chat_muted"):
        # Mutes take effect on this socket's live messages at once.
        consumer.chat_muted = await db(selectors.muted_ids)(user)
    if answer:
        await consumer.send_json(answer)


async def chat_frame(consumer, event: dict) -> None:
    """A consumer's handler of ``chat.frame`` events: send it unless the author is muted."""
    muted = getattr(consumer, "chat_muted", None)
    if muted is None:
        muted = consumer.chat_muted = await db(selectors.muted_ids)(consumer.scope.get("user"))
    if event.get("author") not in muted:
        await consumer.send_json(event["frame"])
