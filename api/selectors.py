"""Reads of the API app: tokens, and the JSON the API returns about users, games, puzzles,
tournaments. Game frames come from ``games.selectors.game_payload`` (the viewer's engine view)."""

from __future__ import annotations

from api.models import ApiToken
from games.history_selectors import game_history_for, game_record
from games.models import Game, Seat
from ratings import selectors as rating_selectors
from tournaments.seasons import trophies_of


def tokens_of(user) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def user_json(user) -> dict:
    return {
        "username": user.username,
        "bot": user.is_bot,
        "bot_level": user.bot_level or None,
        "joined": user.date_joined.isoformat(),
    }


def trophies_json(user) -> list[dict]:
    """A player's trophies, latest season first (``tournaments.seasons.trophies_of``)."""
    return [
        {
            "kind": trophy.kind,
            "place": trophy.place,
            "season": trophy.season.strftime("%Y-%m"),
            "tournament": trophy.tournament_id,
            "tournament_name": trophy.tournament.name if trophy.tournament else None,
        }
        for trophy in trophies_of(user)
    ]


def ratings_json(user) -> dict:
    """Every rating of ``user``: value, rated games, provisional flag."""
    return {
        kind: {
            "rating": round(rating.value, 1),
            "games": rating.games,
            "provisional": rating.provisional,
        }
        for kind, rating in rating_selectors.ratings_of(user=user).items()
    }


def rating_history_json(user, kind: str) -> list[dict]:
    return [
        {
            "at": change.created.isoformat(),
            "before": round(change.before, 1),
            "after": round(change.after, 1),
            "game": change.game_id,
        }
        for change in rating_selectors.rating_history(user=user, kind=kind)
    ]


def leaderboard_json(kind: str, bots: bool, limit: int = 100) -> list[dict]:
    return [
        {
            "rank": row.rank,
            "username": row.user.username,
            "rating": round(row.value, 1),
            "games": row.games,
            "trend": round(row.trend, 1),
        }
        for row in rating_selectors.leaderboard(kind=kind, bots=bots)[:limit]
    ]


def finished_game_json(game: Game) -> dict:
    """A finished game in full (its record is public once it is over)."""
    seats = list(game.seats.all())
    return {
        "id": game.pk,
        "kind": game.kind,
        "rated": game.rated,
        "time_control": game.time_control,
        "status": game.status,
        "termination": game.termination or None,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "players": [seat.user.username if seat.user else None for seat in seats],
        "result": game.result,
        "record": game_record(game) if game.status == Game.Status.FINISHED else None,
    }


def games_export(user, **filters) -> list[Game]:
    """``user``'s finished and aborted games, newest first, filtered as the history page."""
    return [seat.game for seat in game_history_for(user=user, **filters)]


def account_events(user) -> dict:
    """What the account's event stream reports: challenges to it, and its games by status."""
    challenges = list(
        Game.objects.filter(invited=user, status=Game.Status.OPEN)
        .select_related("created_by")
        .order_by("created_at")
    )
    playing = list(
        Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
        .order_by("started_at")
        .values_list("pk", flat=True)
        .distinct()
    )
    return {"challenges": challenges, "playing": playing}


def challenge_json(game: Game) -> dict:
    return {
        "id": game.pk,
        "kind": game.kind,
        "rated": game.rated,
        "time_control": game.time_control,
        "players": game.seat_count,
        "challenger": game.created_by.username if game.created_by else None,
        "challenger_bot": bool(game.created_by and game.created_by.is_bot),
    }


def game_ended(game_id: int) -> dict | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        return None
    return {"id": game.pk, "status": game.status, "result": game.result}


def game_fingerprint(game_id: int) -> tuple | None:
    """What changes whenever any viewer's frame changes (a game stream sends a line then)."""
    row = (
        Game.objects.filter(pk=game_id)
        .values_list(
            "status", "ply", "takebacks", "takeback_offer", "result", "termination", "bot_to_move"
        )
        .first()
    )
    if row is None:
        return None
    seats = tuple(
        Seat.objects.filter(game_id=game_id)
        .order_by("index")
        .values_list("user_id", "forfeit", "rank")
    )
    return (*row[:4], row[4] is not None, *row[5:], seats)


def table_status(game_id: int) -> str | None:
    """A table's status now (None once it is gone: the last player left)."""
    return Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
