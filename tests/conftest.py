"""Fixtures shared by the whole suite: real servers, a real browser.

Tests that need PostgreSQL, Redis or Chromium skip with the reason when the
server is absent. Under CI (``CI=true``) or with ``TOPIARY_REQUIRE_SERVICES=1``
a missing server fails the test instead, so CI can never pass by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import servers

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_configure(config):
    """The test process never runs the embedded runner: importing the ASGI application
    here (socket tests do) must not start beat or move tasks off eager execution. The
    servers the tests start decide for themselves from their environment."""
    from django.conf import settings

    settings.EMBEDDED_RUNNER = False
    _flushes_by_delete()
    _flushes_outlast_server_deadlocks()


def _flushes_by_delete() -> None:
    """A transactional test's flush empties each table with ``DELETE``, not Django's one
    ``TRUNCATE`` of them all, on PostgreSQL.

    A ``TRUNCATE`` gives every table (and index) new files: 1.3-2 s for the site's ~47
    tables on a loaded 2-CPU machine, after each of the suite's hundreds of transactional
    tests. Deleting the few rows a test leaves took 0.1-0.2 s there and ends in the same
    empty tables; sequences go on either way (Django's flush does not restart them).
    Every foreign key is deferred to the commit, so the order is free. A ``DELETE`` also
    waits for no reader, only for a row a server holds (tests/site/test_flush.py).
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            "SET CONSTRAINTS ALL DEFERRED;",
            *(f"DELETE FROM {self.quote_name(table)};" for table in tables),
        ]

    DatabaseOperations.sql_flush = sql_flush


def _flushes_outlast_server_deadlocks() -> None:
    """A transactional test's flush (pytest-django calls TransactionTestCase's teardown)
    is tried again when a server's query made it a deadlock's victim
    (servers.flush_through_deadlocks)."""
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self):
        servers.flush_through_deadlocks(lambda: flush(self))

    TransactionTestCase._fixture_teardown = _fixture_teardown


def services_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("TOPIARY_REQUIRE_SERVICES") == "1"


def need(available: bool, reason: str) -> None:
    """Skip (or, where servers are required, fail) when a real server is missing."""
    if not available:
        if services_required():
            pytest.fail(f"required in CI: {reason}")
        pytest.skip(reason)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Where servers are required (CI), a skipped test is a failed test."""
    report = yield
    if services_required() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped where every test must run (CI): {reason}"
    return report


def pytest_collection_modifyitems(items):
    """Tests that start servers get a test database even without asking for one.

    pytest-django creates the test database only when some collected test is
    marked ``django_db``; a server test must never point at the real database.
    """
    for item in items:
        if "server_env" in item.fixturenames and item.get_closest_marker("django_db") is None:
            item.add_marker(pytest.mark.django_db)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    need(url.startswith("postgres"), "needs PostgreSQL: set DATABASE_URL=postgres://...")
    return url


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    need(bool(url), "needs Redis: set REDIS_URL=redis://...")
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.ConnectionError:
        need(False, f"Redis at {url} does not answer")
    # The test Redis database is the suite's own: stale tasks or channel
    # messages from an earlier run must not leak into this one.
    client.flushdb()
    return url


#: The mining worker's nice value in the tests (production's default: 19, the Procfile).
TEST_MINING_NICE = 10


@pytest.fixture(scope="session")
def server_env(django_db_setup, django_db_blocker, postgres_url, redis_url):
    """Environment for server processes: the test database and the test Redis."""
    from django.db import connection

    if connection.settings_dict["NAME"] == servers.configured_database_name():
        pytest.fail("server_env would point servers at the real database, not the test one")
    with django_db_blocker.unblock():
        database_url = servers.test_database_url(connection.settings_dict)
    yield {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        # Niced, but less than production's 19: on two cores that a suite with its servers
        # and Chromium can fill, a worker at 19 may take minutes just to start.
        "MINING_NICE": str(TEST_MINING_NICE),
    }
    # Every server is stopped by now, but PostgreSQL may not have ended their
    # sessions yet, and a lingering one would stop the test database being dropped.
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("server-logs")


@pytest.fixture(scope="session")
def asgi_server(server_env, server_logs):
    """A real ASGI web process (the Procfile's ``web``); yields its base URL.

    Tests using it must also use ``transactional_db`` so their data is
    committed where the server can see it.
    """
    proc, url = servers.start_web(server_env, server_logs)
    yield url
    proc.stop()


@pytest.fixture(scope="session")
def _session_workers(server_env, server_logs):
    """The Procfile's Celery workers, started once for every module that asks for them: a
    start and a warm shutdown cost seconds each, and 20-odd modules use workers. Only
    ``celery_worker`` has them consume; between its modules they sit idle."""
    holder = {"workers": None}
    yield holder
    if holder["workers"] is not None:
        holder["workers"].stop()


@pytest.fixture(scope="module")
def celery_worker(_session_workers, server_env, server_logs):
    """The real Celery workers (the Procfile's ``worker``, ``bots`` and ``mining``),
    consuming for this module only.

    A worker consuming outside its module would also pick up tasks that other
    modules' tests queue on purpose and expect to stay queued (a game left
    unscored, say). So the session's workers consume only from this fixture's
    start until its end, when they stop consuming and finish what they hold, as a
    warm shutdown would; workers that would not are stopped and the next module
    starts new ones. The module sees only its own part of their logs.
    """
    workers = _session_workers["workers"]
    if workers is None or not workers.resume():
        if workers is not None:
            workers.kill()
        workers = _session_workers["workers"] = servers.start_worker(server_env, server_logs)
    yield servers.ModuleWorkers(workers)
    if not workers.pause():
        workers.stop()
        _session_workers["workers"] = None


@pytest.fixture(scope="module")
def celery_beat(server_env, server_logs):
    """A real Celery beat process (the Procfile's ``beat``) sending the gathered schedule."""
    proc = servers.start_beat(server_env, server_logs)
    yield proc
    proc.stop()


class PollingBrowser:
    """Chromium whose new contexts leave the site's Content-Security-Policy aside, unless
    a test asks for it (``bypass_csp=False``, as tests/site/test_content_security_policy.py
    does on every page kind).

    Playwright's ``wait_for_function`` evaluates its expression again at every poll, from
    a string, which a policy without ``'unsafe-eval'`` refuses; the tests that wait on
    the page that way test the game, not the policy.
    """

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, headless.

    Per module, not per session: while Playwright's sync API is alive, asyncio
    sees a running loop in this thread, so async tests elsewhere could not run.
    Keep asyncio tests and browser tests in separate modules.
    """
    need(CHROMIUM.exists(), "needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    from tests.support.browser import pushes_beside_playwright

    # That same loop makes Django refuse ORM calls (database flushes between
    # tests included) until Playwright stops.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright, pushes_beside_playwright():
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield PollingBrowser(chromium)
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    """A fresh browser context (no cookies) and page."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
