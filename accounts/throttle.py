"""Throttles kept as counters in the cache.

Logins: after ``LOGIN_FAILURE_LIMIT`` failures within ``LOGIN_FAILURE_WINDOW`` seconds
the (username, address) pair is refused, even with the right password, until the
window ends. Registrations: at most ``REGISTRATION_LIMIT`` new accounts per address
within ``REGISTRATION_WINDOW`` seconds.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache


def _key(*, username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.lower()}\0{address}".encode()).hexdigest()
    return f"login-failures:{digest}"


def login_blocked(*, username: str, address: str) -> bool:
    """True while this username may not log in from this address."""
    return cache.get(_key(username=username, address=address), 0) >= settings.LOGIN_FAILURE_LIMIT


def login_failure_record(*, username: str, address: str) -> None:
    """Count one failed login; the window starts with the first failure."""
    key = _key(username=username, address=address)
    cache.add(key, 0, timeout=settings.LOGIN_FAILURE_WINDOW)
    try:
        cache.incr(key)
    except ValueError:
        # The window ran out between add and incr: this failure opens a new one.
        cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW)


def login_failures_clear(*, username: str, address: str) -> None:
    """Forget failures after a successful login."""
    cache.delete(_key(username=username, address=address))


def window_minutes() -> int:
    """The throttling window in whole minutes, for messages."""
    return max(1, round(settings.LOGIN_FAILURE_WINDOW / 60))


def _registration_key(address: str) -> str:
    return f"registrations:{hashlib.sha256(address.encode()).hexdigest()}"


def registration_blocked(*, address: str) -> bool:
    """True while this address has opened as many accounts as the window allows."""
    return cache.get(_registration_key(address), 0) >= settings.REGISTRATION_LIMIT


def registration_record(*, address: str) -> None:
    """Count one account opened from ``address``; the window starts with the first."""
    key = _registration_key(address)
    cache.add(key, 0, timeout=settings.REGISTRATION_WINDOW)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=settings.REGISTRATION_WINDOW)
