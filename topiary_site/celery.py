"""The Celery app: workers run bot moves and end-of-game scoring, beat runs scheduled jobs."""

import os

from celery import Celery
from celery.fixups.django import DjangoWorkerFixup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "topiary_site.settings")

# RunnerTask hands tasks to the embedded runner when one runs in this process (make run).
app = Celery("topiary_site", task_cls="topiary_site.embedded:RunnerTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Operations (issue 23): task run time and queue lag for /metrics, and beat's heartbeat
# for /health/ (beat notes each task it sends; only the beat process connects this).
from celery.signals import (  # noqa: E402
    beat_init,
    before_task_publish,
    worker_init,
    worker_process_init,
)

import kit.heap as heap  # noqa: E402
import kit.metrics as metrics  # noqa: E402
import kit.priority as priority  # noqa: E402
import topiary_site.beat as beat  # noqa: E402

metrics.connect_celery_signals()


@beat_init.connect(weak=False)
def _beat_notes_what_it_sends(**_):
    before_task_publish.connect(beat.note_sent, weak=False)
    beat.note_sent()


@worker_init.connect(weak=False)
def _niced_worker_stays_niced(**_):
    """The ``mining`` worker runs under ``nice -n 19``; with autogroups that needs its
    session's group niced too (kit.priority)."""
    priority.autogroup_follows_nice()


@worker_process_init.connect(weak=False)
def _worker_heap_settled(**_):
    """A worker's pool process has everything loaded once it starts (kit.heap)."""
    heap.settle()


def _connections_back_to_the_pool(fixup: DjangoWorkerFixup) -> None:
    """Give each database connection back to Django's pool, keeping the pool."""
    for conn in fixup._db.connections.all(initialized_only=True):
        try:
            conn.close()
        except fixup.interface_errors:
            pass
        except fixup.DatabaseError as error:
            if "closed" not in str(error) and "not connected" not in str(error):
                raise


def _before_task(self, sender, **_):
    if not getattr(sender.request, "is_eager", False):
        _connections_back_to_the_pool(self)


def _after_task(self, sender, **_):
    if not getattr(sender.request, "is_eager", False):
        _connections_back_to_the_pool(self)
        self.close_cache()


# Celery's Django fixup, at every task boundary, without closing the connection pool.
# Celery 5.7 closes Django's pool before and after every task in a prefork worker
# (celery/celery#10554, open), so every task opened new PostgreSQL connections (two, as
# measured), each a new server process: about a fifth of a bot move's CPU in the worker
# and 16-17 ms of PostgreSQL's (docs/decisions/0012-workers-keep-their-connections.md). The
# rest of the fixup stands: a pool process still closes the pool it inherited at start.
DjangoWorkerFixup.on_task_prerun = _before_task
DjangoWorkerFixup.on_task_postrun = _after_task
