"""Liveness and readiness, with ``django-health-check``'s views and checks.

- ``/health/live/``: the process answers (nothing else is asked).
- ``/health/ready/``: this web process can serve: PostgreSQL answers, no migration is
  pending, the cache works, and with ``REDIS_URL`` Redis answers and a message goes
  through the channel layer. The proxy and compose's health check use it.
- ``/health/``: the whole site works: readiness, plus whatever runs tasks answering and
  beat having sent a task lately. With ``REDIS_URL`` (production) that is a Celery worker
  answering a ping and the beat process; in the embedded default (``make run``) it is
  this process's task threads taking a job and the schedule it runs (topiary_site.embedded).
  A worker or beat down does not stop a web process serving pages, so this one is for
  monitoring, not for taking a replica out.
- ``/health/beat/``: beat alone, in either set-up (beat's container runs it too).
"""

from __future__ import annotations

import dataclasses
import datetime
import time

from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Fails while the database lacks a migration this code needs (a deploy half done)."""

    def run(self):
        from django.db import DEFAULT_DB_ALIAS, connections
        from django.db.migrations.executor import MigrationExecutor

        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            raise ServiceUnavailable(f"{len(plan)} migrations pending")


@dataclasses.dataclass
class ChannelLayer(HealthCheck):
    """A message sent through the channel layer (Redis) comes back."""

    async def run(self):
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        try:
            channel = await layer.new_channel("health.")
            await layer.send(channel, {"type": "health.ping"})
            message = await layer.receive(channel)
        except (OSError, ConnectionError) as error:
            raise ServiceUnavailable("channel layer unreachable") from error
        except Exception as error:  # redis-py's errors do not derive from OSError
            raise ServiceUnavailable(f"channel layer failed: {type(error).__name__}") from error
        if message.get("type") != "health.ping":
            raise ServiceUnavailable("channel layer returned another message")


@dataclasses.dataclass
class EmbeddedTasks(HealthCheck):
    """The embedded default's worker: a task thread of this process takes a job."""

    def run(self):
        import topiary_site.embedded as embedded

        runner = embedded.running()
        if runner is None:
            raise ServiceUnavailable("the embedded runner is not running")
        if not runner.takes_work(timeout=self.timeout.total_seconds() - 1):
            raise ServiceUnavailable("no task thread took a job")


def beat_last_sent() -> float | None:
    """When beat last sent a task (epoch seconds), wherever this set-up keeps it."""
    from django.conf import settings

    if settings.EMBEDDED_RUNNER:
        import topiary_site.embedded as embedded

        return embedded.beat_last_sent()
    import topiary_site.beat as beat

    return beat.last_sent()


@dataclasses.dataclass
class BeatLastRun(HealthCheck):
    """Beat sent a task within ``max_age`` (it sends the games sweep every few seconds)."""

    max_age: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=60), repr=False
    )

    def run(self):
        try:
            last = beat_last_sent()
        except Exception as error:
            # The cache in production, a file in the embedded default.
            raise ServiceUnavailable(f"beat's note unreadable: {type(error).__name__}") from error
        if last is None:
            raise ServiceUnavailable("beat has not sent any task")
        age = time.time() - float(last)
        if age > self.max_age.total_seconds():
            raise ServiceUnavailable(f"beat last sent a task {age:.0f} seconds ago")


def readiness_checks() -> list:
    from django.conf import settings

    checks: list = [
        "health_check.checks.Database",
        MigrationsApplied,
        "health_check.checks.Cache",
    ]
    if settings.REDIS_URL:
        from redis.asyncio import Redis

        url = settings.REDIS_URL
        checks += [
            ("health_check.contrib.redis.Redis", {"client_factory": lambda: Redis.from_url(url)}),
            ChannelLayer,
        ]
    return checks


def full_checks() -> list:
    from django.conf import settings

    checks = readiness_checks()
    if settings.EMBEDDED_RUNNER:
        checks.append(EmbeddedTasks)
    elif settings.REDIS_URL:
        from celery import current_app as app

        checks.append(("health_check.contrib.celery.Ping", {"app": app}))
    else:
        # Only the test process itself (tests/conftest.py turns its runner off): tasks
        # run eagerly there and no beat runs.
        return checks
    return checks + beat_checks()


def beat_checks() -> list:
    """Beat sends tasks: what ``/health/beat/`` and beat's own container health check
    (``manage.py health_check health_beat --no-http``) run."""
    from django.conf import settings

    return [(BeatLastRun, {"max_age": datetime.timedelta(seconds=settings.BEAT_MAX_SILENCE)})]
