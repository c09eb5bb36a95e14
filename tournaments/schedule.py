"""Periodic jobs of the tournaments app (gathered into Celery beat's schedule by settings)."""

BEAT_SCHEDULE = {
    "tournaments-tick": {
        "task": "tournaments.tasks.tournaments_tick",
        # Starts events on time; finished games advance rounds at once through the
        # game_finished signal, so the tick is only the safety net after a restart.
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    "tournaments-schedule": {
        "task": "tournaments.tasks.tournaments_schedule",
        # Creates the schedule's events hours ahead; a minute late is never late.
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "tournaments-seasons": {
        "task": "tournaments.tasks.seasons_close",
        # Season trophies once a month has ended and its last scheduled event is over.
        "schedule": 600.0,
        "options": {"expires": 600.0},
    },
}
