"""Beat's job makes tomorrow's puzzle ahead of time, run by a real Celery worker process."""

from __future__ import annotations

import datetime
import re
import time

import pytest
from django.conf import settings
from django.utils import timezone

from puzzles.models import DailyPuzzle
from topiary_site.celery import app

pytestmark = [
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def successes(worker, task: str) -> list[str]:
    """What each successful run of ``task`` returned, from the worker's log."""
    return re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded in [^:]+: (.*)", worker.log())


def run_through_worker(worker, job: dict, timeout: float = 180) -> str:
    """Send a beat job as beat does and wait for the worker to finish it; what it returned."""
    before = len(successes(worker, job["task"]))
    app.send_task(job["task"], args=job.get("args", ()), kwargs=job.get("kwargs", {}))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = successes(worker, job["task"])
        if len(done) > before:
            return done[before]
        time.sleep(0.2)
    raise AssertionError(f"{job['task']} not done after {timeout}s:\n{worker.log()[-3000:]}")


def test_the_scheduled_job_run_by_a_worker_makes_tomorrows_puzzle_once(celery_worker):
    job = settings.CELERY_BEAT_SCHEDULE["puzzles-prepare-tomorrow"]
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    assert not DailyPuzzle.objects.filter(date=tomorrow).exists()

    assert run_through_worker(celery_worker, job) == repr(tomorrow.isoformat())
    made = DailyPuzzle.objects.get(date=tomorrow)
    assert made.line and made.k == (1, 1, 2, 2, 2, 3, 3)[tomorrow.weekday()]

    # Beat runs the job every hour: later runs find tomorrow's puzzle made and keep it.
    assert run_through_worker(celery_worker, job) == repr(tomorrow.isoformat())
    assert list(DailyPuzzle.objects.filter(date=tomorrow).values_list("pk", flat=True)) == [made.pk]
