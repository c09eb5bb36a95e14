"""Beat jobs of the alerts (gathered into settings by topiary_site.beat)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    # Every 5 minutes: an hour's warning arrives between 55 and 60 minutes before the end.
    "alerts-clock-warnings": {
        "task": "alerts.tasks.clock_warnings",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # Every quarter of an hour (a zone's offset may be :30 or :45): each player's digest
    # goes from 07:00 in their zone; its row (their local date) makes it once a day.
    "alerts-digests": {
        "task": "alerts.tasks.digests",
        "schedule": crontab(minute="*/15"),
        "options": {"expires": 900.0},
    },
    "alerts-prune": {
        "task": "alerts.tasks.prune",
        "schedule": crontab(hour=3, minute=41),
    },
}
