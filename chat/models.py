"""Chat: messages in rooms, mutes, reports and silences (docs/PROTOCOL.md, "Chat").

A message is its author, its time and its text, in a room named by a key the
room's owner chose ("game-12-players", "lobby"...; ``chat.rooms``). Nothing about
a game (ply, position, clock) is stored with it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Message(models.Model):
    room = models.CharField(max_length=60)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)
    #: Set when a moderator removed it: it is shown to nobody from then on.
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["room", "created_at"]),
            models.Index(fields=["author", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.author} in {self.room}: {self.text[:40]}"


class Mute(models.Model):
    """``user`` no longer sees ``muted``'s messages, anywhere."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_muted_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class Report(models.Model):
    """A user's report of a message, for the staff (Django admin)."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["resolved", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter}"


class Silence(models.Model):
    """A moderator's ban from writing in any room until ``until``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_silences"
    )
    until = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.user} silenced until {self.until:%Y-%m-%d %H:%M}"
