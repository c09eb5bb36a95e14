"""The signed-in socket: who is on the other end and which language they speak.

``socket_auth_stack`` is Channels' ``AuthMiddlewareStack`` with the session and user
look-up run on the socket database threads (``kit.socket_db``), and the signed-in
player's language (``scope["player_language"]``) read on the same trip: a page's
arrival is one trip fewer. ``SiteConsumer`` is the base of every websocket consumer of
the site: the kit's lean JSON consumer, speaking its socket's language
(``accounts.i18n.SocketLanguage``).
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from accounts import selectors as account_selectors
from accounts.i18n import SocketLanguage
from kit.consumer_base import LeanJsonConsumer
from kit.socket_db import db


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


class SiteConsumer(SocketLanguage, LeanJsonConsumer):
    """The base of every websocket consumer of the site: its socket's language, no
    per-message hop, frames written by ``kit.wire``."""
