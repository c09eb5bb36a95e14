"""How a Celery task that writes game or tournament state runs."""

from django.db import DatabaseError

#: How every task that writes game or tournament state runs: acknowledged only when done,
#: handed to another worker if its process dies, and retried with backoff when the
#: database or broker blinks. Tasks are written to be safe to run twice.
DURABLE = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError, ConnectionError),
    "retry_backoff": True,
    "max_retries": 5,
}
