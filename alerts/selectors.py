"""Reads of the alerts."""

from django.db.models import Q

from accounts.models import User
from alerts.models import AlertSettings, EmailChoice, PushSubscription


def settings_of(*, user) -> AlertSettings:
    """The player's e-mail choices; defaults (unsaved, all off) until they choose."""
    return AlertSettings.objects.filter(user=user).first() or AlertSettings(user=user)


def subscriptions_of(*, user) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))


def reachable(user_ids: list[int]) -> list[int]:
    """Those of ``user_ids`` with a browser subscribed or some e-mail alert on."""
    if not user_ids:
        return []
    emails_on = (
        Q(alert_settings__email_turns__in=[EmailChoice.EACH, EmailChoice.DIGEST])
        | Q(alert_settings__email_challenges=True)
        | Q(alert_settings__email_games=True)
        | Q(alert_settings__email_tournaments=True)
        | Q(alert_settings__email_clocks=True)
    )
    found = User.objects.filter(pk__in=user_ids).filter(
        Q(pk__in=PushSubscription.objects.values("user_id")) | emails_on
    )
    return list(found.values_list("pk", flat=True).distinct())
