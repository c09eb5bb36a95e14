"""Invite links: a table's creator shares a link, and whoever follows it takes a seat.

The link carries an opaque token: an HMAC of the table's id and a random nonce under the
site's secret key, so the database alone (``Game.invite_nonce``) gives no link, and the
row keeps only the token's SHA-256 (``Game.invite_hash``), by which a link finds its
table. The hash is cleared when the table starts (``tables._game_start``) and goes with
the table when it is closed, so a link works only while its table waits for players.
The route names its parameter ``token``: the request log writes the route, never the
token (``kit.logs.SECRET_URL_PARAMETERS``).
"""

from __future__ import annotations

import base64
import hashlib
import secrets

from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from games.models import Game
from games.services.writer import Refused

#: Longest token a link may carry (longer ones are refused before any lookup).
TOKEN_MAX_LENGTH = 64


def _token(game: Game) -> str:
    digest = salted_hmac("games.invite", f"{game.pk}:{game.invite_nonce}", algorithm="sha256")
    return base64.urlsafe_b64encode(digest.digest()[:18]).decode()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite_open(game: Game) -> None:
    """Give a newly opened (saved) table its invite link; the caller saves the fields."""
    game.invite_nonce = secrets.token_urlsafe(16)
    game.invite_hash = _hash(_token(game))


def invite_token(game: Game, user) -> str | None:
    """The token of the table's invite link, for its creator while it waits; else None."""
    if (
        game.status != Game.Status.OPEN
        or not game.invite_hash
        or user is None
        or game.created_by_id != getattr(user, "pk", None)
    ):
        return None
    return _token(game)


def invite_expired() -> Refused:
    return Refused(
        "invite_expired",
        _(
            "This invite link no longer works: the table is full and its game has started, "
            "or it was closed."
        ),
    )


def invite_table(*, token: str) -> Game:
    """The open table a link's token names; Refused ``invite_expired`` if none."""
    if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX_LENGTH:
        raise invite_expired()
    game = (
        Game.objects.filter(invite_hash=_hash(token), status=Game.Status.OPEN)
        .select_related("created_by")
        .first()
    )
    if game is None:
        raise invite_expired()
    return game
