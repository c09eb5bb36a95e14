"""The garbage collector in a long-running server process (the web server, a Celery worker).

Once Django, Channels and the apps are loaded, a web process holds about 147,000
objects that live as long as it does, and every full collection walked them all: at 50
games, full collections paused the whole process for up to 260 ms. Young collections,
after every 700 allocations (net of frees), cost about 0.6 ms of CPU per move.

``settle()`` runs once the process has loaded everything. It freezes what exists then,
so collections no longer walk it, and collects young objects in larger batches
(docs/decisions/0010-heap-settling.md).
"""

from __future__ import annotations

import gc

from django.conf import settings

#: Young collections after this many allocations net of frees (CPython's default: 700).
#: At 50 games a young collection then comes about every 1.5 s and takes under 10 ms.
YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Free what is already garbage, freeze the rest, and collect young objects in
    batches of ``YOUNG_THRESHOLD``; nothing with ``settings.SETTLE_HEAP`` off."""
    if not settings.SETTLE_HEAP:
        return
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
