"""Celery beat's schedule, gathered from every app that has a ``schedule`` module.

Each app's ``schedule.py`` defines ``BEAT_SCHEDULE``, a plain dict in Celery's
format, so an app adds its periodic jobs without touching settings.
"""

from importlib import import_module
from importlib.util import find_spec


def collect(apps: list[str]) -> dict:
    schedule: dict = {}
    for app in apps:
        if find_spec(f"{app}.schedule") is not None:
            schedule.update(import_module(f"{app}.schedule").BEAT_SCHEDULE)
    return schedule
