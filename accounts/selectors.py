"""Reads from accounts."""

import io
import json
import zipfile

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


def export_archive(*, user) -> bytes:
    """One zip of what the player made here: account, finished games' records, ratings
    history and puzzle attempts (JSON). Only finished games: a running game's record
    would hold what the player may not see yet."""
    from games.history_selectors import game_record
    from games.models import Game
    from puzzles.models import PuzzleAttempt
    from ratings.models import RatingChange

    prefs = preferences_of(user=user)
    account = {
        "username": user.username,
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "preferences": prefs.as_dict(),
    }
    ratings = [
        {
            "kind": change.kind,
            "game": change.game_id,
            "puzzle": change.puzzle_key or None,
            "before": change.before,
            "after": change.after,
            "score": change.score,
            "expected": change.expected,
            "at": change.created.isoformat(),
        }
        for change in RatingChange.objects.filter(user=user).order_by("created", "id")
    ]
    attempts = [
        {
            "puzzle": attempt.puzzle.date.isoformat(),
            "moves": attempt.moves,
            "score": attempt.score,
            "solved": attempt.solved,
            "gave_up": attempt.gave_up,
            "rated": attempt.rated,
            "rating_before": attempt.user_rating_before,
            "rating_after": attempt.user_rating_after,
            "at": attempt.created_at.isoformat(),
        }
        for attempt in PuzzleAttempt.objects.filter(user=user).select_related("puzzle")
    ]
    games = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).distinct()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", json.dumps(account, indent=2))
        archive.writestr("ratings.json", json.dumps(ratings, indent=2))
        archive.writestr("puzzle_attempts.json", json.dumps(attempts, indent=2))
        for game in games.prefetch_related("seats__user").order_by("pk"):
            record = game_record(game)
            archive.writestr(f"games/{game.kind}-{game.pk}.json", json.dumps(record, indent=2))
    return buffer.getvalue()
