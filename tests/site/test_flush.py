"""The flush that ends every transactional test outlasts a deadlock with a server still at
work (the flake once seen in the teardown of a test of tests/games/test_table_browser.py:
``DeadlockDetected`` from pytest-django's flush)."""

from __future__ import annotations

import logging
import re
import threading
import time

import psycopg
import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection
from django.test import TransactionTestCase

from accounts.models import User
from tests.support import servers
from tests.support.players import create_player

pytestmark = pytest.mark.django_db(transaction=True)


class Flush(TransactionTestCase):
    """Only for its teardown: the flush pytest-django runs after a transactional test."""

    __test__ = False

    def runTest(self):
        pass


def flush_order() -> list[str]:
    """The tables in the order the flush empties them (tests/conftest.py's
    ``_flushes_by_delete``: a ``DELETE`` each, in one transaction)."""
    return [
        re.search(r'"([^"]+)"', sql)[1]
        for sql in sql_flush(no_style(), connection, reset_sequences=False)
        if sql.startswith("DELETE")
    ]


def deletes_waiting(watch: psycopg.Connection) -> int:
    return watch.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND wait_event_type = 'Lock' AND query LIKE 'DELETE%'"
    ).fetchone()[0]


def test_the_flush_runs_again_after_losing_a_deadlock_to_a_server(postgres_url, caplog):
    create_player("ann", "ann@example.com")
    # Two tables with rows: the player's, and the content types' (post_migrate's).
    tables = flush_order()
    pair = [User._meta.db_table, ContentType._meta.db_table]
    first, last = sorted(pair, key=tables.index)
    url = servers.test_database_url(connection.settings_dict)
    failures: list[BaseException] = []
    holding = threading.Event()

    def server_at_work():
        """A server's transaction: locks a row of the table the flush empties later, then,
        once the flush waits for it, one of a table the flush has already emptied."""
        with psycopg.connect(url) as server, psycopg.connect(url, autocommit=True) as watch:
            try:
                # So that PostgreSQL ends the flush, not this, as the flake had it.
                server.execute("SET deadlock_timeout = '30s'")
                locked = server.execute(f'SELECT 1 FROM "{last}" LIMIT 1 FOR UPDATE')
                assert locked.fetchone(), f"no row in {last} to hold"
                holding.set()
                deadline = time.monotonic() + 30
                while not deletes_waiting(watch):
                    assert time.monotonic() < deadline, "the flush never waited"
                    time.sleep(0.05)
                server.execute(f'SELECT 1 FROM "{first}" FOR UPDATE').fetchall()
                server.commit()
            except BaseException as error:
                failures.append(error)
            finally:
                holding.set()

    server = threading.Thread(target=server_at_work)
    server.start()
    holding.wait(30)
    with caplog.at_level(logging.WARNING, logger=servers.__name__):
        Flush()._fixture_teardown()
    server.join(60)
    assert failures == []
    assert "flush lost a deadlock" in caplog.text, "the deadlock did not happen"
    assert not User.objects.exists()
