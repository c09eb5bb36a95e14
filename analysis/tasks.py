"""The analysis task: a thin wrapper taking the analysis id, safe to run twice."""

from celery import shared_task

from analysis import services
from topiary_site.celery import DURABLE


@shared_task(**DURABLE)
def analysis_run(analysis_id: int) -> None:
    """Analyse the game's turns not yet analysed; nothing if done or another run is on it."""
    services.analysis_run(analysis_id=analysis_id)
