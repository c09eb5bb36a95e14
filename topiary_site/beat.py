"""Celery beat's schedule, gathered from every app that has a ``schedule`` module.

Each app's ``schedule.py`` defines ``BEAT_SCHEDULE``, a plain dict in Celery's
format, so an app adds its periodic jobs without touching settings.
"""

from importlib import import_module
from importlib.util import find_spec


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
