"""Seasons: a calendar month (UTC) of scheduled events. Each finished scheduled event
gives season points by final place and trophies to its top three; when a month has
ended and its last scheduled event is over, the top three of each game's season table
get season trophies (``seasons_close``, a beat job, safe to run any number of times).

In an event marked "people only" bots play and stay in its standings but are passed
over here: the people below them move up for points and trophies.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.db.models import Count, Sum
from django.utils import timezone

from accounts.models import User
from tournaments.models import SeasonScore, Tournament, Trophy
from tournaments.selectors import tournament_standings

#: Season points by place in a scheduled event (ties share the place's points); anyone
#: else who played there (a game or a score) gets ``PLAYED_POINTS``.
PLACE_POINTS = (10, 7, 5, 4, 3, 2)
PLAYED_POINTS = 1
#: Trophies go to these places (of an event, of a season).
TROPHY_PLACES = 3


def season_of(moment: datetime) -> date:
    """The season (its month's first day, UTC) a moment falls in."""
    moment = moment.astimezone(UTC)
    return date(moment.year, moment.month, 1)


def points_for(rank: int) -> int:
    """Season points of a final place in a scheduled event."""
    return PLACE_POINTS[rank - 1] if rank <= len(PLACE_POINTS) else PLAYED_POINTS


def _ranked(items: list, rank_of) -> list[tuple[int, object]]:
    """``items`` (in order) ranked again among themselves, ties kept: (rank, item)."""
    return [(1 + sum(rank_of(o) < rank_of(item) for o in items), item) for item in items]


def event_results_store(tournament: Tournament) -> None:
    """Store a finished scheduled event's season points and trophies (once: unique rows)."""
    rows = [
        row
        for row in tournament_standings(tournament)
        if (row.games or row.score) and not (tournament.people_only and row.entry.user.is_bot)
    ]
    season = season_of(tournament.starts_at)
    ranked = _ranked(rows, lambda row: row.rank)
    SeasonScore.objects.bulk_create(
        [
            SeasonScore(
                tournament=tournament,
                user=row.entry.user,
                kind=tournament.kind,
                season=season,
                rank=rank,
                points=points_for(rank),
            )
            for rank, row in ranked
        ],
        ignore_conflicts=True,
    )
    Trophy.objects.bulk_create(
        [
            Trophy(
                user=row.entry.user,
                kind=tournament.kind,
                place=rank,
                tournament=tournament,
                season=season,
            )
            for rank, row in ranked
            if rank <= TROPHY_PLACES
        ],
        ignore_conflicts=True,
    )


def season_table(kind: str, season: date) -> list[dict]:
    """A game's season table: rank (ties shared), player, points, events played."""
    totals = list(
        SeasonScore.objects.filter(kind=kind, season=season)
        .values("user")
        .annotate(points=Sum("points"), events=Count("id"))
        .order_by("-points", "user")
    )
    users = User.objects.in_bulk([t["user"] for t in totals])
    return [
        {"rank": rank, "user": users[t["user"]], "points": t["points"], "events": t["events"]}
        for rank, t in _ranked(totals, lambda t: -t["points"])
    ]


def season_trophies(kind: str, season: date) -> list[Trophy]:
    """A game's season trophies for a month, once awarded (best place first)."""
    return list(
        Trophy.objects.filter(kind=kind, season=season, tournament__isnull=True)
        .select_related("user")
        .order_by("place", "user__username")
    )


def trophies_of(user) -> list[Trophy]:
    """A player's trophies, latest season first, with their events."""
    return list(
        Trophy.objects.filter(user=user)
        .select_related("tournament")
        .order_by("-season", "tournament_id", "place", "-pk")
    )


def season_bounds(season: date) -> tuple[datetime, datetime]:
    """The first moment of a season and of the next one (UTC)."""
    start = datetime(season.year, season.month, 1, tzinfo=UTC)
    return start, datetime(season.year + season.month // 12, season.month % 12 + 1, 1, tzinfo=UTC)


def _season_over(kind: str, season: date, now: datetime) -> bool:
    """The month has ended and none of its scheduled events is still to finish."""
    if season >= season_of(now):
        return False
    start, end = season_bounds(season)
    return not Tournament.objects.filter(
        schedule_entry__isnull=False,
        kind=kind,
        starts_at__gte=start,
        starts_at__lt=end,
        status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING],
    ).exists()


def seasons_close(*, now: datetime | None = None) -> int:
    """Award the season trophies of every game's ended seasons not yet awarded; returns
    how many seasons were closed. Idempotent: one season trophy per player, game and month."""
    now = now or timezone.now()
    closed = 0
    awarded = set(
        Trophy.objects.filter(tournament__isnull=True).values_list("kind", "season").distinct()
    )
    open_seasons = (
        SeasonScore.objects.filter(season__lt=season_of(now))
        .values_list("kind", "season")
        .distinct()
    )
    for kind, season in open_seasons:
        if (kind, season) in awarded or not _season_over(kind, season, now):
            continue
        Trophy.objects.bulk_create(
            [
                Trophy(user=row["user"], kind=kind, place=row["rank"], season=season)
                for row in season_table(kind, season)
                if row["rank"] <= TROPHY_PLACES
            ],
            ignore_conflicts=True,
        )
        closed += 1
    return closed
