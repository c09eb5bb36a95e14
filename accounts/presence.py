"""Who is on the site now, for the home page's followed players.

A signed-in page keeps the player's own socket (``/ws/me/``) open; while it is open the
socket notes its player here every ``ONLINE_RENEW`` seconds, and a note lives
``ONLINE_FOR`` seconds in the cache (Redis in production, shared by every process), so a
player is shown online within a renewal of opening a page and offline at most
``ONLINE_FOR`` seconds after closing the last one. Nothing is written to the database.
"""

from __future__ import annotations

from django.core.cache import cache

ONLINE_FOR = 90
ONLINE_RENEW = 30


def _key(user_id: int) -> str:
    return f"online:{user_id}"


def online_note(user_id: int) -> None:
    """The player has a page of the site open now."""
    cache.set(_key(user_id), 1, timeout=ONLINE_FOR)


def online_of(user_ids) -> set[int]:
    """Those of ``user_ids`` who have a page of the site open."""
    keys = {_key(pk): pk for pk in user_ids}
    return {keys[key] for key in cache.get_many(list(keys))} if keys else set()
