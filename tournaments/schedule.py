"""Periodic jobs of the tournaments app (gathered into Celery beat's schedule by settings)."""

BEAT_SCHEDULE = {
    "tournaments-tick": {
        "task": "tournaments.tasks.tournaments_tick",
        # Starts events on time; finished games advance rounds at once through the
        # game_finished signal, so the tick is only the safety net after a restart.
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
}
