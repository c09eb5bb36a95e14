"""Reads from accounts."""

import io
import json
import zipfile
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.hooks import EXPORT_PARTS
from accounts.models import Block, Follow, Preferences, User


def user_by_username(*, username: str) -> User:
    """The active user with this name (any case), or 404."""
    return get_object_or_404(User, username__iexact=username, is_active=True)


def zone_named(name: str | None) -> ZoneInfo:
    """The zone of a saved ``Preferences.time_zone``; UTC when blank (or no longer known)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def time_zone_of(*, user) -> ZoneInfo:
    """The zone a player's e-mails write times in: their choice, else UTC."""
    name = Preferences.objects.filter(user=user).values_list("time_zone", flat=True).first()
    return zone_named(name)


def preferences_of(*, user) -> Preferences:
    """The player's saved preferences; defaults (unsaved) for visitors and new players."""
    if user is None or not user.is_authenticated:
        return Preferences()
    try:
        return user.preferences
    except Preferences.DoesNotExist:
        return Preferences(user=user)


def vacation_of(*, user, now=None) -> dict:
    """The player's time away as the settings page shows it: away until when (or None),
    whole days left this year, and the most days at once."""
    now = now or timezone.now()
    prefs = preferences_of(user=user)
    return {
        "until": prefs.away_until(now),
        "days_left": prefs.vacation_days_left(now),
        "most_at_once": Preferences.VACATION_DAYS_AT_ONCE,
    }


def away_until(*, user, now=None):
    """When the player's vacation ends while they are away, else None (profiles say it)."""
    now = now or timezone.now()
    until = Preferences.objects.filter(user=user).values_list("vacation_until", flat=True).first()
    return until if until is not None and until > now else None


def blocks_between(*, blocker_ids, blocked_id: int) -> list[int]:
    """Those of ``blocker_ids`` who blocked the player ``blocked_id``."""
    return list(
        Block.objects.filter(blocker_id__in=list(blocker_ids), blocked_id=blocked_id).values_list(
            "blocker_id", flat=True
        )
    )


def blocked_ids(*, user) -> set[int]:
    """The ids of the players ``user`` blocked (none for a visitor)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def followed_ids(*, user) -> list[int]:
    """The ids of the players ``user`` follows, the latest followed first."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        Follow.objects.filter(follower=user)
        .order_by("-created_at")
        .values_list("followed_id", flat=True)
    )


def relation_of(*, user, other) -> dict:
    """What a profile's buttons show: does ``user`` follow ``other``, has either blocked
    the other."""
    if user is None or not user.is_authenticated or user.pk == other.pk:
        return {"follows": False, "blocks": False, "blocked_by": False}
    blocks = set(
        Block.objects.filter(
            Q(blocker=user, blocked=other) | Q(blocker=other, blocked=user)
        ).values_list("blocker_id", flat=True)
    )
    return {
        "follows": Follow.objects.filter(follower=user, followed=other).exists(),
        "blocks": user.pk in blocks,
        "blocked_by": other.pk in blocks,
    }


def language_of(*, user) -> str:
    """The language a player chose in their settings ("en", "de"), or "" for the browser's:
    mail to them goes out in it, whoever's request sends it."""
    return preferences_of(user=user).language


def profile_user_by_username(*, username: str) -> User:
    """A player's profile: active or closed (closed profiles say so), or 404."""
    return get_object_or_404(
        User.objects.filter(Q(is_active=True) | Q(closed_at__isnull=False)),
        username__iexact=username,
    )


def export_archive(*, user) -> bytes:
    """One zip of what the player made here: account, finished games' records, ratings
    history and puzzle attempts (JSON). Only finished games: a running game's record
    would hold what the player may not see yet."""
    prefs = preferences_of(user=user)
    account = {
        "username": user.username,
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "preferences": prefs.as_dict(),
        "vacation_until": prefs.vacation_until.isoformat() if prefs.vacation_until else None,
        "follows": list(
            Follow.objects.filter(follower=user).values_list("followed__username", flat=True)
        ),
        "blocks": list(
            Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)
        ),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", json.dumps(account, indent=2))
        # The other apps' parts (games, ratings, puzzles): accounts.hooks.
        for part in EXPORT_PARTS.values():
            for path, data in part(user):
                archive.writestr(path, json.dumps(data, indent=2))
    return buffer.getvalue()
