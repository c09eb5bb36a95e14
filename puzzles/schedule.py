"""Beat jobs of the daily puzzle (gathered into settings by topiary_site.beat)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    # Hourly rather than once a day, so a beat that was down at the planned hour still
    # makes tomorrow's puzzle well before midnight; each run after the first finds it made.
    "puzzles-prepare-tomorrow": {
        "task": "puzzles.prepare_tomorrow",
        "schedule": crontab(minute=17),
    },
}
