"""Reads of the alerts."""

from alerts.models import AlertSettings, PushSubscription


def settings_of(*, user) -> AlertSettings:
    """The player's e-mail choices; defaults (unsaved, all off) until they choose."""
    return AlertSettings.objects.filter(user=user).first() or AlertSettings(user=user)


def subscriptions_of(*, user) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))
