"""What alerts do when an account closes or exports its data (``accounts.hooks``)."""

from __future__ import annotations

from accounts.hooks import export_part
from alerts.models import AlertSettings, PushSubscription
from alerts.selectors import settings_of


def account_closing(sender, user, **kwargs) -> None:
    """A closed account's browsers are forgotten at once, and its e-mail choices."""
    PushSubscription.objects.filter(user=user).delete()
    AlertSettings.objects.filter(user=user).delete()


@export_part("alerts")
def alert_choices(user) -> list[tuple[str, object]]:
    """The e-mail choices and the browsers turned on, by name and dates: never an endpoint
    or its keys (whoever holds them can push to that browser)."""
    chosen = settings_of(user=user)
    browsers = [
        {
            "label": subscription.label,
            "since": subscription.created_at.isoformat(),
            "last_alert": subscription.last_success_at.isoformat()
            if subscription.last_success_at
            else None,
        }
        for subscription in PushSubscription.objects.filter(user=user)
    ]
    emails = {
        field: getattr(chosen, field) for field in sorted(set(AlertSettings.EMAIL_FIELDS.values()))
    }
    return [("alerts.json", {"email": emails, "browsers": browsers})]
