"""Celery tasks of the daily puzzle: thin wrappers around its services."""

from celery import shared_task

from puzzles import services


@shared_task(name="puzzles.prepare_tomorrow")
def prepare_tomorrow() -> str:
    """Make tomorrow's daily puzzle ahead of time; running it again changes nothing."""
    return services.daily_puzzle_prepare_tomorrow().date.isoformat()
