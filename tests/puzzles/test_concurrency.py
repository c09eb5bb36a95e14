"""Concurrent first requests for a date's puzzle make it once (real PostgreSQL, real threads)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from engine import puzzles as engine_puzzles
from puzzles import services
from puzzles.models import DailyPuzzle
from tests.puzzles.conftest import MONDAY

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

REQUESTERS = 6


def test_concurrent_first_requests_make_one_puzzle_and_all_get_it(postgres_url, monkeypatch):
    made = []
    real_daily = engine_puzzles.daily

    def counted_daily(date):
        made.append(date)
        return real_daily(date)

    monkeypatch.setattr(engine_puzzles, "daily", counted_daily)
    start = threading.Barrier(REQUESTERS)
    results, errors = [], []

    def request():
        try:
            start.wait()
            results.append(services.daily_puzzle_get_or_create(date=MONDAY).pk)
        except Exception as error:  # reported below, with the others' results
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(REQUESTERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(results) == REQUESTERS and len(set(results)) == 1
    assert DailyPuzzle.objects.filter(date=MONDAY).count() == 1
    # The others waited for the first and reused its row instead of making the puzzle again.
    assert made == [MONDAY]
