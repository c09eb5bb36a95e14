"""Alerts that reach a player with the site closed: Web Push subscriptions, e-mail
choices, and one row per alert decided (docs/ALERTS.md)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, pgettext_lazy


class Event(models.TextChoices):
    """What an alert is about (never shown as such: each has its own text, alerts.texts)."""

    TURN = "turn"
    CHALLENGE = "challenge"
    STARTED = "started"
    ENDED = "ended"
    TOURNAMENT = "tournament"
    CLOCK_DAY = "clock_day"
    CLOCK_HOUR = "clock_hour"
    DIGEST = "digest"
    TEST = "test"


class PushSubscription(models.Model):
    """One browser that accepted Web Push for a player: where to send (``endpoint``, a
    secret URL of the browser's push service) and the keys to encrypt for it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    #: What the browser said it is ("Firefox on Linux"), for the settings list.
    label = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Push subscription {self.pk} of {self.user_id}"

    @property
    def endpoint_digest(self) -> str:
        """The endpoint's SHA-256 (hex): the settings page tells this browser's entry by
        it without the secret endpoint in the page."""
        return hashlib.sha256(self.endpoint.encode()).hexdigest()

    def info(self) -> dict:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class EmailChoice(models.TextChoices):
    OFF = "off", pgettext_lazy("e-mail alerts", "Off")
    EACH = "each", gettext_lazy("Each game, at most once a day")
    DIGEST = "digest", gettext_lazy("One daily list of every game waiting")


class AlertSettings(models.Model):
    """Which alerts a player wants by e-mail (every one is off until they choose it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alert_settings"
    )
    email_turns = models.CharField(max_length=8, choices=EmailChoice.choices, default="off")
    email_challenges = models.BooleanField(default=False)
    email_games = models.BooleanField(default=False)
    email_tournaments = models.BooleanField(default=False)
    email_clocks = models.BooleanField(default=False)

    #: The e-mail switches a one-click unsubscribe turns off, by event.
    EMAIL_FIELDS = {
        Event.TURN: "email_turns",
        Event.DIGEST: "email_turns",
        Event.CHALLENGE: "email_challenges",
        Event.STARTED: "email_games",
        Event.ENDED: "email_games",
        Event.TOURNAMENT: "email_tournaments",
        Event.CLOCK_DAY: "email_clocks",
        Event.CLOCK_HOUR: "email_clocks",
    }

    def __str__(self) -> str:
        return f"Alert settings of {self.user_id}"

    def emails(self, event: str) -> bool:
        """Does the player want ``event`` by e-mail (a turn: one by one, not in a digest)?"""
        field = self.EMAIL_FIELDS.get(event)
        if field is None:
            return False
        value = getattr(self, field)
        if field == "email_turns":
            return value == (EmailChoice.DIGEST if event == Event.DIGEST else EmailChoice.EACH)
        return bool(value)


class Alert(models.Model):
    """One alert decided for a player: at most one per (player, event, subject, ply), so a
    task run twice, or two tasks racing, alert once. ``subject`` is the game's id (the
    tournament's for ``tournament``, the day's ordinal for ``digest``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=12, choices=Event.choices)
    subject = models.BigIntegerField()
    ply = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Set when the e-mail for it was sent (the once-a-day rule reads it).
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event", "subject", "ply"], name="one_alert_per_event"
            )
        ]
        # The clock warnings look for a game's warning whoever it went to; the once-a-day
        # rule reads the unique constraint's index (user, event, subject).
        indexes = [
            models.Index(fields=["subject", "event", "ply"]),
            models.Index(fields=["created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.event} alert {self.subject}@{self.ply} for {self.user_id}"
