"""Real servers for tests: the ASGI web process, the Celery worker and beat, and a Redis
of a test's own.

They are started with the very commands of the project's Procfile (the same
ones docker-compose runs), against the test database and the test Redis, so a
test that uses them exercises what production runs.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import urlparse, urlunparse

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def procfile_commands(path: Path = ROOT / "Procfile") -> dict[str, str]:
    """The Procfile's process types and their commands."""
    commands = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^([a-z][a-z0-9_-]*):\s*(.+)$", line.strip())
        if match:
            commands[match[1]] = match[2]
    return commands


def free_port() -> int:
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def configured_database_name() -> str:
    """The database DATABASE_URL names (the real one, which tests must leave alone)."""
    return urlparse(os.environ["DATABASE_URL"]).path.lstrip("/")


def test_database_url(settings_dict: dict) -> str:
    """A DATABASE_URL pointing at the database the test run is using."""
    base = urlparse(os.environ["DATABASE_URL"])
    return urlunparse(base._replace(path="/" + settings_dict["NAME"]))


#: Tries of a transactional test's flush that PostgreSQL ended as a deadlock's victim.
FLUSH_ATTEMPTS = 5


def lost_a_lock_conflict(error: BaseException | None) -> bool:
    """Was this (or what caused it) PostgreSQL ending a statement as a deadlock's victim
    or on a lock timeout?"""
    from psycopg import errors

    while error is not None:
        if isinstance(error, errors.DeadlockDetected | errors.LockNotAvailable):
            return True
        error = error.__cause__ or error.__context__
    return False


def flush_through_deadlocks(flush: Callable[[], None]) -> None:
    """Empty the test database with ``flush``, again if it lost a deadlock to a server.

    A server (web, worker, beat) may still be in a transaction when a test ends: a move
    the test did not wait for, a sweep, a socket's last query. The flush is one
    ``TRUNCATE`` of every table, taking each table's lock in turn; a server that holds a
    lock on a table the flush has not reached yet and then reads one it already holds
    waits for the flush as the flush waits for it. PostgreSQL ends one of the two. When
    that is the flush, the server's transaction goes on to its end, and the flush then
    runs alone.
    """
    for attempt in range(1, FLUSH_ATTEMPTS + 1):
        try:
            flush()
            return
        except Exception as error:
            if attempt == FLUSH_ATTEMPTS or not lost_a_lock_conflict(error):
                raise
            log.warning("the test database's flush lost a deadlock (try %d); again", attempt)
            time.sleep(0.2 * attempt)


class Process:
    """One Procfile process running in the background, with its output kept in a log file."""

    def __init__(self, kind: str, env: dict[str, str], log_dir: Path, command: str = ""):
        self.kind = kind
        self.env = env
        self.log_path = log_dir / f"{kind}-{env.get('PORT', 'x')}.log"
        self._log = self.log_path.open("wb")
        # The test process may allow async-unsafe ORM calls for Playwright's sake; a
        # server must keep Django's protection, as in production.
        inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        full_env = {**inherited, **env, "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '')}"}
        self.popen = subprocess.Popen(
            ["bash", "-c", "exec " + (command or procfile_commands()[kind])],
            cwd=ROOT,
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, needle: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.log():
                return
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.kind} exited early:\n{self.log()[-3000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"{self.kind} not ready after {timeout}s:\n{self.log()[-3000:]}")

    def wait_for_port(self, port: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.kind} exited early:\n{self.log()[-3000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.kind} not listening after {timeout}s:\n{self.log()[-3000:]}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        self.signal(sig)
        self.wait_stopped(timeout)

    def signal(self, sig: int) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, sig)

    def wait_stopped(self, timeout: float = 20) -> None:
        """Wait for the process to end after ``signal``, killing it after ``timeout``."""
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()
        self._log.close()

    def kill(self) -> None:
        """Kill hard, as a crashed machine would."""
        self.stop(signal.SIGKILL)


def start_web(env: dict[str, str], log_dir: Path) -> tuple[Process, str]:
    """Start the ``web`` process on a free port; returns it and its base URL."""
    port = free_port()
    proc = Process("web", {**env, "PORT": str(port)}, log_dir)
    proc.wait_for_port(port)
    return proc, f"http://127.0.0.1:{port}"


def start_like_make_run(
    env: dict[str, str], log_dir: Path, host: str = "127.0.0.1"
) -> tuple[Process, str]:
    """Serve the site as ``make run`` does after migrating and seeding: ``honcho start web``
    (the Procfile's ``web`` alone) bound to ``host`` on a free port; returns it and its
    base URL (always by 127.0.0.1)."""
    port = free_port()
    proc = Process("web", {**env, "HOST": host, "PORT": str(port)}, log_dir, "honcho start web")
    proc.wait_for_port(port)
    return proc, f"http://127.0.0.1:{port}"


#: The queue each of the Procfile's workers consumes (its ``--queues``).
QUEUES = {"worker": "celery", "bots": "bots", "mining": "mining"}


class Workers:
    """The Procfile's Celery workers: ``worker`` (scoring, clocks, tournaments), ``bots``
    (bot moves and analysis, on their own queue) and ``mining`` (puzzle mining, niced),
    started, stopped and killed together."""

    def __init__(self, env: dict[str, str], log_dir: Path):
        self.env, self.log_dir = env, log_dir
        port = str(free_port())
        self.procs = {kind: Process(kind, {**env, "PORT": port}, log_dir) for kind in QUEUES}
        try:
            for proc in self.procs.values():
                proc.wait_for_log("ready.")
        except BaseException:
            # One that never got ready must not leave the others consuming after the run.
            self.kill()
            raise

    @property
    def worker(self) -> Process:
        return self.procs["worker"]

    @property
    def bots(self) -> Process:
        return self.procs["bots"]

    @property
    def mining(self) -> Process:
        return self.procs["mining"]

    @contextmanager
    def down(self, kind: str) -> Iterator[None]:
        """``kind``'s worker ("worker", "bots" or "mining") is stopped inside the block and a
        new one (with a log of its own) is consuming after it."""
        self.procs[kind].stop()
        try:
            yield
        finally:
            fresh = Process(kind, {**self.env, "PORT": str(free_port())}, self.log_dir)
            fresh.wait_for_log("ready.")
            self.procs[kind] = fresh

    def log(self) -> str:
        """Every worker's output (each part only grows, so counts in it only grow)."""
        return "".join(proc.log() for proc in self.procs.values())

    def alive(self) -> bool:
        return all(proc.popen.poll() is None for proc in self.procs.values())

    def nodes(self) -> dict[str, str]:
        """Each worker's Celery node name (the Procfile's ``--hostname``) and its queue."""
        host = socket.gethostname()
        return {
            f"{proc.kind}-{proc.env['PORT']}@{host}": QUEUES[proc.kind]
            for proc in self.procs.values()
        }

    def pause(self, timeout: float = 30) -> bool:
        """Stop consuming and wait until no task is running or reserved, as a warm shutdown
        would, but keep the processes for the next module. False if they would not."""
        return self._consuming(False, timeout) and self._idle(timeout)

    def resume(self, timeout: float = 30) -> bool:
        """Consume again from each worker's queue. False if they would not."""
        return self._consuming(True, timeout)

    def wait_idle(self, timeout: float = 60) -> None:
        """Wait until every queue is empty and no worker runs or holds a task (a finished
        game's mining, say, queued by the test before)."""
        import redis

        client = redis.Redis.from_url(self.env["REDIS_URL"])
        deadline = time.monotonic() + timeout
        while any(client.llen(queue) for queue in QUEUES.values()) or not self._idle(5):
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers still busy after {timeout}s:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def _inspect(self, timeout: float):
        from topiary_site import celery_app

        nodes = list(self.nodes())
        return celery_app.control.inspect(destination=nodes, timeout=timeout, limit=len(nodes))

    def _consuming(self, on: bool, timeout: float) -> bool:
        """Have every worker consume from its queue (``on``) or from none; wait until done."""
        from topiary_site import celery_app

        if not self.alive():
            return False
        command = celery_app.control.add_consumer if on else celery_app.control.cancel_consumer
        nodes = self.nodes()
        for node, queue in nodes.items():
            command(queue, destination=[node], reply=True, timeout=timeout, limit=1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            queues = self._inspect(timeout).active_queues() or {}
            consuming = {
                node: {q["name"] for q in queues.get(node, [])} for node in nodes if node in queues
            }
            if len(consuming) == len(nodes) and all(
                (queue in consuming[node]) == on for node, queue in nodes.items()
            ):
                return True
            time.sleep(0.1)
        return False

    def _idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            inspect = self._inspect(timeout)
            active, reserved = inspect.active(), inspect.reserved()
            if (
                active is not None
                and reserved is not None
                and len(active) == len(reserved) == len(self.nodes())
                and not any(active.values())
                and not any(reserved.values())
            ):
                return True
            time.sleep(0.2)
        return False

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        """All at once: each warm shutdown takes its seconds, and they need not queue."""
        for proc in self.procs.values():
            proc.signal(sig)
        for proc in self.procs.values():
            proc.wait_stopped(timeout)

    def kill(self) -> None:
        self.stop(signal.SIGKILL)


class ModuleWorkers:
    """``Workers`` as one test module sees them: their logs from the module's start on (a
    process started since, by ``down``, from its own start)."""

    def __init__(self, workers: Workers):
        self._workers = workers
        self._seen = [(proc, len(proc.log())) for proc in workers.procs.values()]

    def _since(self, proc: Process) -> str:
        start = next((seen for known, seen in self._seen if known is proc), 0)
        return proc.log()[start:]

    def log(self) -> str:
        """Every worker's output in this module (each part only grows; the whole does not
        grow only at its end, so slice one worker's own ``log()`` by a length, not this)."""
        return "".join(self._since(proc) for proc in self._workers.procs.values())

    def __getattr__(self, name):
        return getattr(self._workers, name)


def start_worker(env: dict[str, str], log_dir: Path) -> Workers:
    """Start the Celery workers and wait until they are consuming."""
    return Workers(env, log_dir)


def start_beat(env: dict[str, str], log_dir: Path) -> Process:
    """Start Celery ``beat`` with a schedule file of its own."""
    schedule = log_dir / f"beat-schedule-{free_port()}"
    proc = Process("beat", {**env, "CELERY_BEAT_SCHEDULE_FILENAME": str(schedule)}, log_dir)
    proc.wait_for_log("beat: Starting")
    return proc


class RedisServer:
    """A Redis of the test's own, on a port of its own, to stop and start at will."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.dir = tmp_path
        self.popen: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.popen = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.dir)),
            ],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        Process.wait_for_port(self, self.port)  # same polling, on this process

    def log(self) -> str:
        return f"redis-server on {self.port}"

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(20)
