"""Reads from accounts."""

from django.db.models import Q
from django.shortcuts import get_object_or_404

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


def profile_user_by_username(*, username: str) -> User:
    """A player's profile: active or closed (closed profiles say so), or 404."""
    return get_object_or_404(
        User.objects.filter(Q(is_active=True) | Q(closed_at__isnull=False)),
        username__iexact=username,
    )
