"""Server processes freeze the heap they loaded: collections walk only what came after."""

from kit import heap
from tests.site.conftest import probe

WEB_LOADS = """
import gc, json
import topiary_site.asgi
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "walked": len(gc.get_objects()),
    "young_threshold": gc.get_threshold()[0],
}))
"""

# As a worker starts its pool: Celery's Django fix-up sets Django up in the worker before
# it forks the pool processes, and each process then sends worker_process_init.
WORKER_STARTS = """
import gc, json
from celery.signals import worker_process_init
import django
import topiary_site.celery
django.setup()
before = gc.get_freeze_count()
worker_process_init.send(sender=None)
print(json.dumps({
    "frozen_before": before,
    "frozen": gc.get_freeze_count(),
    "walked": len(gc.get_objects()),
    "young_threshold": gc.get_threshold()[0],
}))
"""


def test_the_web_process_freezes_what_it_loaded_and_collects_young_objects_in_batches():
    loaded = probe(WEB_LOADS)
    # Django, Channels and the apps: tens of thousands of objects no collection walks.
    assert loaded["frozen"] > 50_000
    assert loaded["walked"] < loaded["frozen"] / 10
    assert loaded["young_threshold"] == heap.YOUNG_THRESHOLD


def test_a_process_told_not_to_settle_keeps_the_collectors_defaults():
    loaded = probe(WEB_LOADS, SETTLE_HEAP="0")
    assert loaded["frozen"] == 0
    assert loaded["walked"] > 50_000
    assert loaded["young_threshold"] == 700


def test_a_celery_pool_process_settles_when_it_starts():
    started = probe(WORKER_STARTS)
    assert started["frozen_before"] == 0
    assert started["frozen"] > 20_000
    assert started["walked"] < started["frozen"] / 10
    assert started["young_threshold"] == heap.YOUNG_THRESHOLD
