"""The embedded default's worker and beat, inside the web process.

With ``REDIS_URL`` set, production runs Celery's ``worker`` and ``beat`` processes
(Procfile). Without it (``make run``) there is no broker, and the in-memory channel
layer only reaches sockets of this very process, so the work is done here:

- **Tasks** (``.delay()``) run on a thread pool of their own, never in the thread
  that called them: a strong bot thinking for seconds does not hold up the request
  or socket that made the move, nor Django's single thread for async-to-sync calls.
  Each job runs through ``sync_to_async`` on the server's event loop, so a push to
  sockets from inside a task goes to that loop, where the in-memory layer lives.
- **Bot thinking** runs in a small pool of processes (``EMBEDDED_THINKERS``, default
  the number of CPUs), offered to ``games.thinking`` by ``kit.signals``: a search on a
  thread of this process would hold the interpreter lock against every page and socket
  for its seconds.
- **Beat**: Celery's own ``celery.beat.Scheduler`` runs ``CELERY_BEAT_SCHEDULE`` (the
  schedule gathered from every app's ``schedule.py``, the one beat runs in production)
  in a thread, sending the due tasks to the pool above.

It runs only in the process serving the site (``topiary_site.asgi`` starts it when
``settings.EMBEDDED_RUNNER``, which is on exactly when ``REDIS_URL`` is not set), and
the scheduler only in the one process holding a lock file next to the database, so
two web processes on one database never run beat twice (a second one takes over if
the first exits). Tasks are idempotent either way.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import logging
import multiprocessing
import os
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from asgiref.sync import sync_to_async
from celery import Task
from celery.beat import Scheduler
from django.conf import settings
from django.db import close_old_connections

from kit.signals import embedded_runner_started

log = logging.getLogger(__name__)

#: How often a process that lost the scheduler lock tries again to take it over.
LOCK_RETRY_SECONDS = 15.0


class Runner:
    """The thread pool running tasks, the process pool running bot searches, and the
    thread running beat's schedule."""

    def __init__(self, threads: int, thinkers: int = 1):
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="embedded-task")
        self.thinker_count = thinkers
        self.thinkers = self._new_thinkers()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = threading.Event()
        self.scheduler_thread: threading.Thread | None = None
        self._lock_file = None

    # ------------------------------------------------------------------ tasks

    def submit(
        self, task: Task, args: tuple, kwargs: dict, expires: float | None, countdown: float = 0
    ) -> None:
        """Run ``task`` later on the pool, no sooner than ``countdown`` seconds from now (as
        Celery's worker would); dropped, as Celery would, once ``expires`` passed."""
        if countdown > 0:
            # A house bot's answer to an outside bot's challenge waits HOUSE_BOT_ANSWER_DELAY.
            later = threading.Timer(countdown, self.submit, (task, args, kwargs, expires))
            later.daemon = True
            later.start()
            return
        queued = time.monotonic()

        def job() -> None:
            if expires is not None and time.monotonic() - queued > expires:
                log.info("embedded: %s expired before it could run", task.name)
                return
            close_old_connections()
            try:
                task.apply(args=args, kwargs=kwargs, throw=True)
            except Exception:
                log.exception("embedded: task %s%r failed", task.name, tuple(args))
            finally:
                close_old_connections()

        loop = self.loop
        if loop is not None and not loop.is_closed():
            # On the server's loop, so async_to_sync inside the task (socket pushes)
            # goes back to that loop; the job itself runs on our pool.
            wrapped = sync_to_async(job, thread_sensitive=False, executor=self.pool)
            asyncio.run_coroutine_threadsafe(wrapped(), loop)
        else:
            # No request has come in yet, so no socket is listening: plain pool.
            self.pool.submit(job)

    def loop_seen(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def takes_work(self, timeout: float) -> bool:
        """Does a task thread take a job within ``timeout`` seconds (the embedded answer
        to a Celery worker's ping)?"""
        if self.stopping.is_set():
            return False
        try:
            self.pool.submit(lambda: None).result(timeout)
        except (RuntimeError, TimeoutError):  # shut down, or every thread busy past it
            return False
        return True

    # ------------------------------------------------------------------ thinking

    def _new_thinkers(self) -> ProcessPoolExecutor:
        # Spawned, not forked: this process has threads, and a fork copies their locks.
        return ProcessPoolExecutor(
            max_workers=self.thinker_count, mp_context=multiprocessing.get_context("spawn")
        )

    def think(self, function, *args):
        """``function(*args)`` in a thinking process; here if the pool has broken down."""
        try:
            return self.thinkers.submit(function, *args).result()
        except BrokenProcessPool:
            log.exception("embedded: a thinking process died; starting new ones")
            self.thinkers = self._new_thinkers()
            return function(*args)

    # ------------------------------------------------------------------ beat

    def start_scheduler(self) -> None:
        self.scheduler_thread = threading.Thread(
            target=self._schedule_forever, name="embedded-beat", daemon=True
        )
        self.scheduler_thread.start()

    def _take_lock(self) -> bool:
        path = lock_path()
        handle = path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._lock_file = handle  # held (and so locked) as long as this process lives
        return True

    def _schedule_forever(self) -> None:
        from topiary_site.celery import app

        while not self._take_lock():
            log.info("embedded: another process runs the schedule (%s); waiting", lock_path())
            if self.stopping.wait(LOCK_RETRY_SECONDS):
                return
        # Every task module registered, so beat finds each entry's task by name.
        app.loader.import_default_modules()
        scheduler = NotingScheduler(app, max_interval=settings.EMBEDDED_BEAT_MAX_INTERVAL)
        # A scheduler that just started counts as one that sent, as production's beat
        # notes itself on beat_init.
        heartbeat_path().touch()
        log.info("embedded: beat runs %s", ", ".join(sorted(scheduler.schedule)))
        while not self.stopping.is_set():
            try:
                wait = scheduler.tick()
            except Exception:
                log.exception("embedded: beat tick failed")
                wait = 1.0
            self.stopping.wait(max(wait, 0.05))

    def stop(self) -> None:
        self.stopping.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)


_runner: Runner | None = None
_runner_lock = threading.Lock()


def lock_path() -> Path:
    """The file whose lock says which process runs the schedule for this database."""
    name = str(settings.DATABASES["default"]["NAME"])
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return Path(f"{name}.beat.lock")
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"topiary-{digest}.beat.lock"


def heartbeat_path() -> Path:
    """The file whose modification time is when the schedule last sent a task.

    A file, not the cache: the embedded default's cache is each process's own memory,
    and any web process on this database answers ``/health/``, not only the one running
    the schedule.
    """
    return lock_path().with_suffix(".sent")


def beat_last_sent() -> float | None:
    """When this database's schedule last sent a task (epoch seconds), or None."""
    try:
        return heartbeat_path().stat().st_mtime
    except FileNotFoundError:
        return None


class NotingScheduler(Scheduler):
    """Celery's scheduler, noting each task it sends for the health check (production's
    beat notes them on ``before_task_publish``, which no broker sends here)."""

    def apply_async(self, *args, **kwargs):
        result = super().apply_async(*args, **kwargs)
        heartbeat_path().touch()
        return result


def start() -> Runner:
    """Start the pool and the scheduler in this process (once; later calls return it)."""
    global _runner
    with _runner_lock:
        if _runner is None:
            _runner = Runner(
                threads=settings.EMBEDDED_TASK_THREADS, thinkers=settings.EMBEDDED_THINKERS
            )
            embedded_runner_started.send(sender=Runner, runner=_runner)
            _runner.start_scheduler()
            log.info(
                "embedded: tasks on %d threads, bots think in %d processes, beat in-process",
                settings.EMBEDDED_TASK_THREADS,
                settings.EMBEDDED_THINKERS,
            )
        return _runner


def running() -> Runner | None:
    return _runner


class RunnerTask(Task):
    """Celery's Task, sent to the embedded runner's pool when one runs in this process.

    Elsewhere (production, the test suite) nothing changes: the broker, or eager
    execution when ``CELERY_TASK_ALWAYS_EAGER`` is set.
    """

    def apply_async(self, args=None, kwargs=None, task_id=None, producer=None, **options):
        runner = _runner
        if runner is None:
            return super().apply_async(args, kwargs, task_id, producer, **options)
        expires, countdown = options.get("expires"), options.get("countdown")
        runner.submit(
            self,
            tuple(args or ()),
            dict(kwargs or {}),
            float(expires) if isinstance(expires, int | float) else None,
            float(countdown) if isinstance(countdown, int | float) else 0,
        )
        return None


class LoopSeen:
    """ASGI middleware telling the runner which event loop serves the site."""

    def __init__(self, app, runner: Runner):
        self.app = app
        self.runner = runner

    async def __call__(self, scope, receive, send):
        if self.runner.loop is None:
            self.runner.loop_seen(asyncio.get_running_loop())
        return await self.app(scope, receive, send)
