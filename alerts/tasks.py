"""Celery tasks of the alerts: one-line wrappers taking ids, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError
from kombu.exceptions import OperationalError

from alerts import services

#: A delivery the push service or mail server put off, or a database or broker blink, is
#: tried again after 1, 2, 4, ... s (jittered), up to 6 times; the alert's own row stops a
#: second alert in any case.
DELIVERY = {
    "acks_late": True,
    "autoretry_for": (services.DeliveryLater, DatabaseError, OperationalError, ConnectionError),
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "max_retries": 6,
}


@shared_task(**DELIVERY)
def alert_send(event: str, subject: int, user_id: int, ply: int = 0) -> None:
    """Decide and queue one alert (``alerts.services.alert_send``)."""
    services.alert_send(event=event, subject=subject, user_id=user_id, ply=ply)


@shared_task(**DELIVERY)
def push_deliver(alert_id: int, subscription_id: int) -> str:
    return services.push_deliver(alert_id=alert_id, subscription_id=subscription_id)


@shared_task(**DELIVERY)
def mail_deliver(alert_id: int) -> str:
    return services.mail_deliver(alert_id=alert_id)


@shared_task(acks_late=True)
def clock_warnings() -> int:
    """The periodic job: a day and an hour before a correspondence clock ends."""
    return services.clock_warnings_send()


@shared_task(acks_late=True)
def digests() -> int:
    """The quarter-hourly job: each player's daily list of games waiting, for those who
    chose it, from 07:00 in their zone."""
    return services.digests_send()


@shared_task(acks_late=True)
def prune() -> int:
    """The daily job: forget alerts older than two months."""
    return services.alerts_prune()
