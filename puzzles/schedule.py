"""Beat jobs of the puzzles (gathered into settings by topiary_site.beat)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    # Hourly rather than once a day, so a beat that was down at the planned hour still
    # makes tomorrow's puzzle well before midnight; each run after the first finds it made.
    "puzzles-prepare-tomorrow": {
        "task": "puzzles.prepare_tomorrow",
        "schedule": crontab(minute=17),
    },
    # Training pool: one self-play game mined per run and kind, on the mining queue (its
    # niced worker takes only CPU that bots and the web leave), until the pool holds
    # TOP_UP_TARGET puzzles.
    "puzzles-top-up-topiary": {
        "task": "puzzles.top_up_pool",
        "schedule": crontab(minute="*/10"),
        "kwargs": {"kind": "topiary", "games": 1},
    },
    "puzzles-top-up-wizards-garden": {
        "task": "puzzles.top_up_pool",
        "schedule": crontab(minute="5-59/10"),
        "kwargs": {"kind": "wizards_garden", "games": 1},
    },
}
