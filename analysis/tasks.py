"""The analysis task: a thin wrapper taking the analysis id, safe to run twice."""

from celery import shared_task

from analysis import services
from kit.durable import DURABLE


@shared_task(bind=True, **DURABLE)
def analysis_run(self, analysis_id: int) -> None:
    """Analyse the game's turns not yet analysed; nothing if done. If another run is on it
    (this one re-delivered after a worker died), look again once that run would be stale."""
    busy = services.analysis_run(analysis_id=analysis_id)
    if busy and not self.request.is_eager:
        raise self.retry(countdown=services.STALE.total_seconds())
