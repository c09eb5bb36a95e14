"""The Procfile's worker and beat run against the real broker."""

from topiary_site import celery_app


def test_worker_answers_over_the_broker_and_beat_keeps_running(celery_worker, celery_beat):
    replies = celery_app.control.ping(timeout=10)
    assert any(name.startswith("worker-") for reply in replies for name in reply), replies
    assert celery_beat.popen.poll() is None, celery_beat.log()[-2000:]
    assert "beat: Starting" in celery_beat.log()
