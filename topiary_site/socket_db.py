"""Database work of websockets: its own pool of threads, and the sign-in on it too.

Channels runs ``database_sync_to_async`` work on one thread per process by default
(thread-sensitive), which capped a daphne process at one core's worth of socket
database work. Socket work here runs on a bounded pool of threads
(``settings.SOCKET_DB_THREADS``), so that with the HTTP bound (``topiary_site.limits``)
it always fits in the database connection pool. Each call is a whole unit (a move
locks its game row itself) and sockets share nothing in memory.

The session and user look-up of every socket's handshake (Channels' ``AuthMiddleware``)
runs on the same pool: on its one thread a storm of connects queued behind each
other until daphne dropped handshakes it had not finished in time. The same trip reads
the signed-in player's language (``scope["player_language"]``), which the socket speaks
(``topiary_site.i18n``): a page's arrival is one trip fewer.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor

from channels.auth import AuthMiddleware, get_user
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings

from accounts import selectors as account_selectors

_threads = ThreadPoolExecutor(settings.SOCKET_DB_THREADS, thread_name_prefix="socket-db")

#: ``db(function)(*args)``: run ``function`` on the socket database threads.
db = functools.partial(database_sync_to_async, thread_sensitive=False, executor=_threads)


def _signed_in(scope) -> tuple:
    """(the socket's user, the language they chose in their settings or "")."""
    user = get_user.func(scope)
    return user, account_selectors.language_of(user=user) if user.is_authenticated else ""


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, looking the user and their language up on the socket
    database threads, in one trip."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped, scope["player_language"] = await db(_signed_in)(scope)


def socket_auth_stack(inner):
    """Channels' ``AuthMiddlewareStack`` with ``SocketAuthMiddleware``."""
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
