"""The site's own Prometheus metrics, and the protected ``/metrics`` page.

HTTP requests and latencies come from ``django-prometheus``'s middleware; the game
metrics below from ``prometheus-client``. Web, worker and beat are separate processes
(and a worker forks): with ``PROMETHEUS_MULTIPROC_DIR`` set, every process writes its
samples to files in that directory and ``/metrics`` of any web process sums them all,
so a bot's think time measured in a worker shows on the web's page. What is better read
than counted (live games, the bot queue, scoring lag) is read when scraped.
"""

from __future__ import annotations

import atexit
import hmac
import os
import socket
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
if MULTIPROCESS:
    # Containers sharing the directory all have a pid 1: name each process's files by
    # host and pid so two containers never write one file.
    _HOST = socket.gethostname()

    def process_identifier() -> str:
        return f"{_HOST}-{os.getpid()}"

    values.ValueClass = values.MultiProcessValue(process_identifier)
    # A process that ends takes its live gauges (open sockets) with it; its counters stay.
    atexit.register(lambda: multiprocess.mark_process_dead(process_identifier()))

MOVES = Counter("topiary_moves_total", "Moves played", ["kind", "by"])
REFUSALS = Counter("topiary_refusals_total", "Socket requests refused, by code", ["code"])
MOVE_ROUND_TRIP = Histogram(
    "topiary_move_round_trip_seconds",
    "From a player's request (a move, a resignation...) arriving on a socket to its answer",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
BOT_THINK = Histogram(
    "topiary_bot_think_seconds",
    "Time a bot spent choosing a move",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
)
TASK_SECONDS = Histogram(
    "topiary_task_seconds",
    "Celery task run time",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60),
)
TASK_LAG = Histogram(
    "topiary_task_lag_seconds",
    "From a task being queued to a worker starting it",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
PUZZLE_GENERATION = Histogram(
    "topiary_puzzle_generation_seconds",
    "Time to generate one puzzle",
    buckets=(0.1, 0.5, 1, 2, 5, 10, 30, 60, 120),
)
OPEN_SOCKETS = Gauge(
    "topiary_open_sockets",
    "Websockets open now",
    ["consumer"],
    multiprocess_mode="livesum",
)

#: Header carrying the time a task was queued (read by the worker for TASK_LAG).
QUEUED_AT_HEADER = "topiary_queued_at"


#: Collectors the apps add from their ``AppConfig.ready`` (``collector_add``), read at
#: every scrape before the broker's queues.
_app_collectors: list = []


def collector_add(collector) -> None:
    """Read ``collector`` (an object with ``collect()``, as prometheus-client's custom
    collectors) at every scrape of ``/metrics``: for what an app reads rather than counts."""
    _app_collectors.append(collector)


class LiveCollector:
    """Gauges read at scrape time: the apps' collectors, then the broker's queues."""

    def collect(self):
        from django.conf import settings

        for collector in _app_collectors:
            yield from collector.collect()

        if settings.REDIS_URL:
            import redis

            depth = GaugeMetricFamily(
                "topiary_task_queue_depth",
                "Tasks waiting in the broker, by queue (bot moves, scoring, jobs)",
                labels=["queue"],
            )
            client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
            try:
                for queue in task_queue_names():
                    depth.add_metric([queue], client.llen(queue))
            except redis.RedisError:
                return
            finally:
                client.close()
            yield depth


def task_queue_names() -> list[str]:
    """The Celery queues tasks are routed to (Redis keeps each as a list of that name)."""
    from celery import current_app as app

    queues = app.conf.task_queues
    if queues:
        return sorted(queue.name for queue in queues)
    return [app.conf.task_default_queue]


def registry() -> CollectorRegistry:
    """Every process's samples (multiprocess) or this process's, plus the live gauges."""
    if MULTIPROCESS:
        scraped = CollectorRegistry()
        multiprocess.MultiProcessCollector(scraped)
    else:
        scraped = CollectorRegistry()
        scraped.register(_ThisProcess())
    scraped.register(LiveCollector())
    return scraped


class _ThisProcess:
    def collect(self):
        return REGISTRY.collect()


def allowed(request) -> bool:
    """``METRICS_TOKEN`` as a bearer token; without one, only in DEBUG (development)."""
    from django.conf import settings

    if not settings.METRICS_TOKEN:
        return settings.DEBUG
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return hmac.compare_digest(given.encode(), settings.METRICS_TOKEN.encode())


def metrics_view(request):
    from django.http import Http404, HttpResponse

    if not allowed(request):
        # Not found rather than forbidden: the public learns nothing about the page.
        raise Http404
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


# ------------------------------------------------------------------ Celery signals


def connect_celery_signals() -> None:
    """Task run time and queue lag for every task, measured where the task runs."""
    from celery.signals import (
        before_task_publish,
        task_postrun,
        task_prerun,
        worker_process_shutdown,
    )

    if MULTIPROCESS:
        # Pool children may leave without running atexit handlers.
        worker_process_shutdown.connect(
            lambda **_: multiprocess.mark_process_dead(process_identifier()), weak=False
        )

    started: dict[str, float] = {}

    @before_task_publish.connect(weak=False)
    def stamp(headers=None, **_):
        if headers is not None:
            headers[QUEUED_AT_HEADER] = time.time()

    @task_prerun.connect(weak=False)
    def begin(task_id=None, task=None, **_):
        started[task_id] = time.monotonic()
        queued = getattr(task.request, QUEUED_AT_HEADER, None) or (
            (task.request.headers or {}).get(QUEUED_AT_HEADER)
        )
        if queued:
            TASK_LAG.labels(task.name).observe(max(0.0, time.time() - float(queued)))

    @task_postrun.connect(weak=False)
    def end(task_id=None, task=None, **_):
        began = started.pop(task_id, None)
        if began is not None:
            TASK_SECONDS.labels(task.name).observe(time.monotonic() - began)
