"""Reads of the ratings app: current ratings, their history and the leaderboards."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, FloatField, OuterRef, QuerySet, Subquery, Sum, Value, Window
from django.db.models.functions import Coalesce, Rank
from django.utils import timezone

from accounts.models import User
from engine.bots import measured_ratings
from games.models import Seat
from ratings import elo
from ratings.models import Rating, RatingChange, rating_kinds

#: The leaderboards' "recent trend" is the change over this many days.
TREND_DAYS = 7


def start_ratings(*, user_ids, kind: str) -> dict[int, float]:
    """Where each player's rating of ``kind`` starts: 1500, or for a house bot its level's
    measured strength in that game (``engine.bots.measured_ratings``, bench/levels.py)."""
    starts = dict.fromkeys(user_ids, float(elo.INITIAL_RATING))
    bots = User.objects.filter(pk__in=list(user_ids), is_bot=True).values_list("pk", "bot_level")
    for user_id, level in bots:
        measured = measured_ratings(level).get(kind)
        if measured is not None:
            starts[user_id] = float(measured)
    return starts


def _unplayed(user, kind: str) -> Rating:
    """An unsaved rating at ``user``'s start (a house bot's: its level's measured strength)."""
    start = start_ratings(user_ids=[user.pk], kind=kind)[user.pk] if user.is_bot else None
    return Rating(user=user, kind=kind, value=start or elo.INITIAL_RATING)


def rating_of(*, user, kind: str) -> Rating:
    """``user``'s rating of ``kind``; an unsaved start rating (no games) if they have none."""
    return Rating.objects.filter(user=user, kind=kind).first() or _unplayed(user, kind)


def ratings_of(*, user) -> dict[str, Rating]:
    """``user``'s rating for every kind, games first (start ratings where unplayed)."""
    stored = {rating.kind: rating for rating in Rating.objects.filter(user=user)}
    return {kind: stored.get(kind) or _unplayed(user, kind) for kind in rating_kinds()}


def rating_values(*, user_ids, kind: str) -> dict[int, float]:
    """Current rating of ``kind`` for each user id (the start rating for those who have none):
    for pairings."""
    user_ids = list(user_ids)
    stored = dict(
        Rating.objects.filter(kind=kind, user_id__in=user_ids).values_list("user_id", "value")
    )
    missing = [user_id for user_id in user_ids if user_id not in stored]
    return {**start_ratings(user_ids=missing, kind=kind), **stored} if missing else stored


def rating_shown(*, user_ids, kind: str) -> dict[int, tuple[float, str]]:
    """Each user's rating of ``kind`` as (value, as shown: "1500?" while provisional),
    for the lobby's seeks and tables (registered with ``games.hooks.rating_source``)."""
    user_ids = list(user_ids)
    stored = {r.user_id: r for r in Rating.objects.filter(kind=kind, user_id__in=user_ids)}
    missing = [user_id for user_id in user_ids if user_id not in stored]
    starts = start_ratings(user_ids=missing, kind=kind) if missing else {}
    shown = {}
    for user_id in user_ids:
        rating = stored.get(user_id) or Rating(kind=kind, value=starts[user_id])
        shown[user_id] = (rating.value, rating.display)
    return shown


def rating_history(*, user, kind: str) -> list[RatingChange]:
    """Every change of ``user``'s rating of ``kind``, oldest first."""
    return list(RatingChange.objects.filter(user=user, kind=kind).order_by("created", "id"))


def leaderboard(*, kind: str, bots: bool = False) -> QuerySet[Rating]:
    """Established ratings of ``kind``, best first, each with its ``rank`` and ``trend``.

    Provisional players are left out; bots have a board of their own
    (``bots=True``) and never appear on the players' board. ``rank`` is shared
    by equal ratings; ``trend`` is the change over the last ``TREND_DAYS`` days.
    """
    since = timezone.now() - timedelta(days=TREND_DAYS)
    recent = (
        RatingChange.objects.filter(user=OuterRef("user"), kind=kind, created__gte=since)
        .values("user")
        .annotate(total=Sum(F("after") - F("before")))
        .values("total")
    )
    return (
        _board(kind=kind, bots=bots)
        .select_related("user")
        .annotate(
            rank=Window(Rank(), order_by=F("value").desc()),
            trend=Coalesce(Subquery(recent, output_field=FloatField()), Value(0.0)),
        )
        .order_by("-value", "user__username")
    )


def _board(*, kind: str, bots: bool) -> QuerySet[Rating]:
    return Rating.objects.filter(
        kind=kind,
        games__gte=elo.PROVISIONAL_GAMES,
        user__is_bot=bots,
        user__is_active=True,
    )


def leaderboard_rank(*, rating: Rating) -> int | None:
    """Where ``rating`` stands on its board (shared ranks as ``leaderboard``), or None if off it."""
    if rating.pk is None or rating.provisional or not rating.user.is_active:
        return None
    board = _board(kind=rating.kind, bots=rating.user.is_bot)
    return board.filter(value__gt=rating.value).count() + 1


def best_win_for(*, user, kind: str) -> RatingChange | None:
    """The opponent's rating change in ``user``'s rated win over the highest-rated opponent.

    "Beaten" means finishing ahead of them; their rating is the one they had
    before that game. None when the player has beaten nobody in a rated game.
    """
    my_rank = Seat.objects.filter(game=OuterRef("game"), user=user).values("rank")[:1]
    their_rank = Seat.objects.filter(game=OuterRef("game"), user=OuterRef("user")).values("rank")[
        :1
    ]
    return (
        RatingChange.objects.filter(kind=kind, game__seats__user=user)
        .exclude(user=user)
        .annotate(my_rank=Subquery(my_rank), their_rank=Subquery(their_rank))
        .filter(my_rank__lt=F("their_rank"))
        .select_related("user", "game")
        .order_by("-before", "created")
        .first()
    )
