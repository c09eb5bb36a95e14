"""Races for the tests: calls released at the same moment, each on a thread of its own."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection


def at_once(call: Callable[[Any], Any], items: Iterable) -> list[tuple[Any, Exception | None]]:
    """``call(item)`` for every item at the same moment, each on a thread (and database
    connection) of its own: (what it returned, what it raised) per call, in the order
    they finished."""
    items = list(items)
    barrier = threading.Barrier(len(items))
    outcomes: list[tuple[Any, Exception | None]] = []

    def run(item) -> None:
        try:
            barrier.wait()
            outcomes.append((call(item), None))
        except Exception as error:  # handed to the test with the others' outcomes
            outcomes.append((None, error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(item,)) for item in items]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
