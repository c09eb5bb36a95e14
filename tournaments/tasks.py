"""Celery tasks: thin wrappers around tournaments.services, taking ids, safe to run twice."""

from celery import shared_task

from kit.durable import DURABLE
from tournaments import selectors, services


@shared_task(**DURABLE)
def tournament_advance(tournament_id: int) -> None:
    """Start, score, pair or finish one tournament as its stored state calls for."""
    services.tournament_advance(tournament_id=tournament_id)


@shared_task(acks_late=True)
def tournaments_tick() -> None:
    """The periodic job: advance every tournament due to start or running."""
    for tournament_id in selectors.tournaments_due():
        tournament_advance.delay(tournament_id)
