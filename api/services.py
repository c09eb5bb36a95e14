"""Writes of the API app: personal tokens, and upgrading an account to a BOT account."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from api.models import ApiToken, Scope
from games.models import Seat

#: Every secret starts so, which makes a leaked one easy to recognise (and to scan for).
SECRET_PREFIX = "tpy_"
NAME_MAX_LENGTH = 60
#: How far ahead an expiry date may be: further is as good as none (leave it empty).
EXPIRY_MAX_DAYS = 10 * 366


class TokenError(Exception):
    """A token request refused; nothing changed. ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def secret_hash(secret: str) -> str:
    """The stored form of a secret: SHA-256 (a random 256-bit secret needs no slow hash)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _expiry(expires_on: datetime.date | str | None) -> datetime.date | None:
    """The last day a new token works, from a date or its ISO text; None or "" for none."""
    if expires_on in (None, ""):
        return None
    if isinstance(expires_on, str):
        try:
            expires_on = datetime.date.fromisoformat(expires_on.strip())
        except ValueError:
            raise TokenError(
                "bad_request", _("the expiry date is not a date (expected YYYY-MM-DD)")
            ) from None
    today = timezone.now().date()
    if expires_on < today:
        raise TokenError("bad_request", _("the expiry date is in the past"))
    if (expires_on - today).days > EXPIRY_MAX_DAYS:
        raise TokenError(
            "bad_request",
            _("the expiry date is more than %(years)s years ahead: leave it empty for none")
            % {"years": EXPIRY_MAX_DAYS // 366},
        )
    return expires_on


def token_create(
    *, user, name: str, scopes: list[str], expires_on: datetime.date | str | None = None
) -> tuple[ApiToken, str]:
    """A new token of ``user`` and its secret, which is returned here once and never stored.

    ``expires_on`` is the last day (UTC) it works; without one it works until revoked.
    """
    name = (name or "").strip()
    if not name or len(name) > NAME_MAX_LENGTH:
        raise TokenError(
            "bad_request",
            _("name the token (1 to %(max)s characters)") % {"max": NAME_MAX_LENGTH},
        )
    unknown = sorted(set(scopes) - set(Scope.values))
    if unknown:
        raise TokenError(
            "bad_request", _("unknown scopes: %(scopes)s") % {"scopes": ", ".join(unknown)}
        )
    if not scopes:
        raise TokenError("bad_request", _("choose at least one scope"))
    expires_on = _expiry(expires_on)
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        scopes=[scope for scope in Scope.values if scope in scopes],
        secret_hash=secret_hash(secret),
        prefix=secret[: len(SECRET_PREFIX) + 4],
        expires_on=expires_on,
    )
    return token, secret


def token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens: every request carrying it is refused from now on."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise TokenError("not_found", _("you have no such token"))
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def token_authenticate(secret: str) -> ApiToken | None:
    """The live token with this secret (its last use noted), or None: a revoked or
    expired token is no token at all."""
    token = (
        ApiToken.objects.live()
        .select_related("user")
        .filter(secret_hash=secret_hash(secret), user__is_active=True)
        .first()
    )
    if token is not None:
        now = timezone.now()
        # Noted at most once a minute: a bot's every move need not write the token's row.
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
    return token


def bot_account_upgrade(*, user) -> User:
    """Make ``user`` a BOT account moved by an outside program (``bot_level`` ``api``).

    Only an account that has never sat at a table may become a bot: its games and
    ratings were a human's. The change is for good (as on lichess).
    """
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.is_bot:
            raise TokenError("already_bot", _("this account is already a BOT account"))
        if Seat.objects.filter(user=user).exists():
            raise TokenError(
                "has_games", _("only an account that has played no games can be a BOT")
            )
        user.is_bot = True
        user.bot_level = User.OUTSIDE_BOT_LEVEL
        user.save(update_fields=["is_bot", "bot_level"])
    return user
