"""Periodic jobs of the games app (gathered into Celery beat's schedule by settings)."""

BEAT_SCHEDULE = {
    "games-sweep": {
        "task": "games.tasks.games_sweep",
        # Often enough that a flagged live clock ends the game within seconds.
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
}
