"""Rate limits of the public API: requests per window for each token and each address.

A fixed window in Django's cache (Redis in production): the first request of a window
creates its counter with the window's lifetime, later ones increment it. Over the limit,
the request is refused with 429 and ``Retry-After`` (seconds until the window ends).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache


class RateLimited(Exception):
    """Over the limit of ``what`` ("address" or "token"); the API words it for the caller."""

    def __init__(self, retry_after: int, what: str):
        super().__init__(f"too many requests from this {what}: retry in {retry_after} s")
        self.retry_after = retry_after
        self.what = what


def _count(key: str, window: int) -> int:
    cache.add(key, 0, timeout=window + 1)
    try:
        return cache.incr(key)
    except ValueError:
        # The window ended between add and incr: this request opens the next one.
        cache.set(key, 1, timeout=window + 1)
        return 1


def rate_check(*, token_id: int | None, address: str) -> None:
    """Count one request of this address (and token); RateLimited when over either limit."""
    window = settings.API_RATE_WINDOW
    now = time.time()
    start = int(now // window) * window
    retry_after = max(1, int(start + window - now + 0.999))
    if _count(f"api-rate:addr:{address}:{start}", window) > settings.API_RATE_PER_ADDRESS:
        raise RateLimited(retry_after, "address")
    token_key = f"api-rate:token:{token_id}:{start}"
    if token_id is not None and _count(token_key, window) > settings.API_RATE_PER_TOKEN:
        raise RateLimited(retry_after, "token")
