"""The Celery app: workers run bot moves and end-of-game scoring, beat runs scheduled jobs."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "topiary_site.settings")

app = Celery("topiary_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
