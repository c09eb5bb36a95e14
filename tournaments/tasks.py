"""Celery tasks: thin wrappers around tournaments.services, taking ids, safe to run twice."""

from celery import shared_task

from kit.durable import DURABLE
from tournaments import scheduling, seasons, selectors, services


@shared_task(**DURABLE)
def tournament_advance(tournament_id: int) -> None:
    """Start, score, pair or finish one tournament as its stored state calls for."""
    services.tournament_advance(tournament_id=tournament_id)


@shared_task(acks_late=True)
def tournaments_tick() -> None:
    """The periodic job: advance every tournament due to start or running."""
    for tournament_id in selectors.tournaments_due():
        tournament_advance.delay(tournament_id)


@shared_task(acks_late=True)
def tournaments_schedule() -> None:
    """The periodic job: create the schedule's events that are due to be announced."""
    scheduling.schedule_run()


@shared_task(acks_late=True)
def seasons_close() -> None:
    """The periodic job: award the trophies of seasons that have ended."""
    seasons.seasons_close()
