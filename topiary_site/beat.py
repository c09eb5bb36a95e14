"""Celery beat's schedule, gathered from every app that has a ``schedule`` module.

Each app's ``schedule.py`` defines ``BEAT_SCHEDULE``, a plain dict in Celery's
format, so an app adds its periodic jobs without touching settings.
"""

import time
from importlib import import_module
from importlib.util import find_spec

#: Cache key where beat notes when it last sent a task (/health/beat/ reads it).
LAST_SENT_KEY = "ops:beat-last-sent"


def collect(apps: list[str]) -> dict:
    """Every app's ``BEAT_SCHEDULE`` in one dict; two apps may not use one entry name."""
    schedule: dict = {}
    owners: dict[str, str] = {}
    for app in apps:
        if find_spec(f"{app}.schedule") is None:
            continue
        for name, entry in import_module(f"{app}.schedule").BEAT_SCHEDULE.items():
            if name in owners:
                raise ValueError(f"beat entry {name!r} is defined by both {owners[name]} and {app}")
            owners[name] = app
            schedule[name] = entry
    return schedule


def with_intervals(schedule: dict, spec: str) -> dict:
    """``schedule`` with the entries named in ``spec`` ("name=seconds,...") run that often.

    For tests and demos that cannot wait an hour for an hourly job; unknown names
    and non-positive numbers are refused so a typo does not pass silently.
    """
    changed = dict(schedule)
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        name, _, seconds = item.partition("=")
        name = name.strip()
        if name not in schedule:
            raise ValueError(f"BEAT_INTERVALS: no beat entry {name!r}")
        try:
            every = float(seconds)
        except ValueError:
            raise ValueError(f"BEAT_INTERVALS: {item!r} is not name=seconds") from None
        if every <= 0:
            raise ValueError(f"BEAT_INTERVALS: {name} must run every positive number of seconds")
        changed[name] = {**schedule[name], "schedule": every}
    return changed


def note_sent(**_) -> None:
    """Connected in the beat process only: beat just sent a task (or started)."""
    from django.core.cache import cache

    cache.set(LAST_SENT_KEY, time.time(), timeout=None)


def last_sent() -> float | None:
    """When beat last noted it sent a task (epoch seconds), or None."""
    from django.core.cache import cache

    return cache.get(LAST_SENT_KEY)
