"""The Procfile's worker and beat run against the real broker."""

import time

from topiary_site import celery_app

#: How long the worker has to answer the ping (a deadline, not a measure).
PATIENCE = 10


def worker_replies() -> list:
    """Pings until a ``worker-`` node answers (a ping always waits its whole timeout, so
    short ones, again), or PATIENCE is up; the replies of the last ping."""
    deadline = time.monotonic() + PATIENCE
    while True:
        replies = celery_app.control.ping(timeout=1)
        if any(name.startswith("worker-") for reply in replies for name in reply):
            return replies
        if time.monotonic() >= deadline:
            return replies


def test_worker_answers_over_the_broker_and_beat_keeps_running(celery_worker, celery_beat):
    replies = worker_replies()
    assert any(name.startswith("worker-") for reply in replies for name in reply), replies
    assert celery_beat.popen.poll() is None, celery_beat.log()[-2000:]
    assert "beat: Starting" in celery_beat.log()
