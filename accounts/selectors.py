"""Reads from accounts."""

import io
import json
import zipfile

from django.db.models import Q
from django.shortcuts import get_object_or_404

from accounts.hooks import EXPORT_PARTS
from accounts.models import Preferences, User


def user_by_username(*, username: str) -> User:
    """The active user with this name (any case), or 404."""
    return get_object_or_404(User, username__iexact=username, is_active=True)


def preferences_of(*, user) -> Preferences:
    """The player's saved preferences; defaults (unsaved) for visitors and new players."""
    if user is None or not user.is_authenticated:
        return Preferences()
    try:
        return user.preferences
    except Preferences.DoesNotExist:
        return Preferences(user=user)


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
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", json.dumps(account, indent=2))
        # The other apps' parts (games, ratings, puzzles): accounts.hooks.
        for part in EXPORT_PARTS.values():
            for path, data in part(user):
                archive.writestr(path, json.dumps(data, indent=2))
    return buffer.getvalue()
