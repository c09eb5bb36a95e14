"""Periodic jobs of the games app (gathered into Celery beat's schedule by settings)."""

BEAT_SCHEDULE = {
    "games-sweep": {
        "task": "games.tasks.games_sweep",
        # Often enough that a flagged live clock ends the game within seconds.
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    "games-seeks": {
        "task": "games.tasks.seeks_top_up",
        # Bots join a quick-pairing table within 5 s of the wait its player chose.
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    "games-vacations": {
        "task": "games.tasks.vacations_sweep",
        # A vacation's end starts its clocks within half a minute (from the moment they
        # start: the player loses none of their time to the wait).
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
}
