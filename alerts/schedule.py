"""Beat jobs of the alerts (gathered into settings by topiary_site.beat)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    # Every 5 minutes: an hour's warning arrives between 55 and 60 minutes before the end.
    "alerts-clock-warnings": {
        "task": "alerts.tasks.clock_warnings",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # Once a day, at 07:00 UTC; the digest's row makes a second run that day a no-op.
    "alerts-digests": {
        "task": "alerts.tasks.digests",
        "schedule": crontab(hour=7, minute=0),
    },
    "alerts-prune": {
        "task": "alerts.tasks.prune",
        "schedule": crontab(hour=3, minute=41),
    },
}
