"""Writes of chat: post, mute, report, and the moderators' remove and silence.

Every refusal is a ``ChatRefused`` with a code and a reason a person can read, in the
language active when it is made (the socket's); the socket sends it as a ``refused``
frame (docs/PROTOCOL.md, "Chat").
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chat import rooms as chat_rooms
from chat.models import Message, Mute, Report, Silence
from chat.selectors import message_data, muted_names

log = logging.getLogger(__name__)

#: Control characters (line breaks included): a message is one line of plain text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


class ChatRefused(Exception):
    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _push(groups: tuple[str, ...], event: dict) -> None:
    """Send ``event`` to the sockets of ``groups``; a failure is logged, never raised
    (the message is stored: clients see it on their next ``chat_hello``)."""

    async def send_all():
        layer = get_channel_layer()
        for group in groups:
            await layer.group_send(group, event)

    try:
        async_to_sync(send_all)()
    except Exception as error:
        log.warning("chat push to %s failed: %r", ", ".join(groups), error)


def _room_named(kind: str, place_id: int | None, user, name) -> chat_rooms.Room:
    room = next((r for r in chat_rooms.rooms_for(kind, place_id, user) if r.name == name), None)
    if room is None:
        raise ChatRefused("no_room", _("There is no such chat room here for you."))
    return room


def _clean(text) -> str:
    if not isinstance(text, str):
        raise ChatRefused("bad_request", _("A message is a text."))
    text = _CONTROL.sub(" ", text).strip()
    if not text:
        raise ChatRefused("empty", _("Write something first."))
    cap = settings.CHAT_MAX_LENGTH
    if len(text) > cap:
        raise ChatRefused(
            "too_long",
            ngettext(
                "Too long: a message is at most %(most)s character (this one has %(count)s).",
                "Too long: a message is at most %(most)s characters (this one has %(count)s).",
                cap,
            )
            % {"most": cap, "count": len(text)},
        )
    return text


def _silenced_until(user):
    return (
        Silence.objects.filter(user=user, until__gt=timezone.now())
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )


def chat_post(*, user, kind: str, place_id: int | None, room: str, text) -> Message:
    """Post ``text`` in the room named ``room`` of a place, and push it to its readers."""
    closed = chat_rooms.write_closed(user)
    if closed:
        code = "bot" if user is not None and user.is_authenticated else "signed_out"
        raise ChatRefused(code, closed)
    target = _room_named(kind, place_id, user, room)
    if target.closed:
        raise ChatRefused("read_only", target.closed)
    text = _clean(text)
    now = timezone.now()
    with transaction.atomic():
        # One post of a user at a time, so the user's rate limit cannot be raced.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        until = _silenced_until(user)
        if until is not None:
            raise ChatRefused(
                "silenced",
                _("A moderator silenced you until %(until)s UTC.")
                % {"until": f"{until:%Y-%m-%d %H:%M}"},
            )
        window = timedelta(seconds=settings.CHAT_USER_WINDOW)
        if (
            Message.objects.filter(author=user, created_at__gt=now - window).count()
            >= settings.CHAT_USER_LIMIT
        ):
            raise ChatRefused(
                "too_fast",
                ngettext(
                    "You are sending messages too fast: at most %(most)s in %(seconds)s second."
                    " Wait a moment.",
                    "You are sending messages too fast: at most %(most)s in %(seconds)s seconds."
                    " Wait a moment.",
                    settings.CHAT_USER_WINDOW,
                )
                % {"most": settings.CHAT_USER_LIMIT, "seconds": settings.CHAT_USER_WINDOW},
            )
        window = timedelta(seconds=settings.CHAT_ROOM_WINDOW)
        if (
            Message.objects.filter(room=target.key, created_at__gt=now - window).count()
            >= settings.CHAT_ROOM_LIMIT
        ):
            raise ChatRefused(
                "room_busy", _("This room is busy: wait a few seconds and try again.")
            )
        message = Message.objects.create(room=target.key, author=user, text=text, created_at=now)
    frame = {"type": "chat", "room": target.name, "message": message_data(message)}
    _push(target.groups, {"type": "chat.frame", "frame": frame, "author": user.pk})
    return message


def _user_named(username) -> object:
    found = get_user_model().objects.filter(username__iexact=str(username)).first()
    if found is None:
        raise ChatRefused("no_user", _("There is no such player."))
    return found


def chat_mute(*, user, username, muted: bool = True) -> list[str]:
    """Mute (or unmute) a player for ``user``; the usernames they mute now."""
    if user is None or not user.is_authenticated:
        raise ChatRefused("signed_out", _("Sign in to mute players."))
    other = _user_named(username)
    if other.pk == user.pk:
        raise ChatRefused("bad_request", _("You cannot mute yourself."))
    if muted:
        Mute.objects.get_or_create(user=user, muted=other)
    else:
        Mute.objects.filter(user=user, muted=other).delete()
    return muted_names(user)


def chat_report(*, user, kind: str, place_id: int | None, message_id, reason: str = "") -> Report:
    """Report a message ``user`` can read at this place to the moderators (once each)."""
    if user is None or not user.is_authenticated:
        raise ChatRefused("signed_out", _("Sign in to report a message."))
    keys = {room.key for room in chat_rooms.rooms_for(kind, place_id, user)}
    message = Message.objects.filter(
        pk=message_id if isinstance(message_id, int) else None,
        room__in=keys,
        removed_at__isnull=True,
    ).first()
    if message is None:
        raise ChatRefused("no_message", _("There is no such message here."))
    if message.author_id == user.pk:
        raise ChatRefused("bad_request", _("You cannot report your own message."))
    report, _created = Report.objects.get_or_create(
        message=message, reporter=user, defaults={"reason": str(reason or "")[:200]}
    )
    return report


def chat_messages_remove(*, message_ids, by=None) -> int:
    """Remove messages (a moderator's action): nobody is shown them again."""
    removed = Message.objects.filter(pk__in=message_ids, removed_at__isnull=True).update(
        removed_at=timezone.now()
    )
    Report.objects.filter(message_id__in=message_ids).update(resolved=True)
    log.info("chat: %s removed %d message(s)", by, removed)
    return removed


def chat_silence(*, user, hours: float, by=None, reason: str = "") -> Silence:
    """Stop ``user`` writing in any room for ``hours`` (a moderator's action)."""
    return Silence.objects.create(
        user=user,
        until=timezone.now() + timedelta(hours=hours),
        created_by=by,
        reason=reason[:200],
    )
