"""Reads for games: a game as one viewer may see it, and the lobby's open tables.

The frames themselves are built by ``games.frames`` (one place for every viewer's
frame); this module reads what they are built from. ``game_payload`` is re-exported
here: one viewer's frame from ``(game, seats, viewer)``.
"""

from __future__ import annotations

from django.db.models import Prefetch, Q
from django.urls import reverse

from games.frames import game_payload as game_payload
from games.models import Game, Seat


def game_with_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """A game and its seats in turn order; ``Game.DoesNotExist`` if there is none."""
    game = Game.objects.get(pk=game_id)
    return game, list(game.seats.select_related("user").order_by("index"))


def seat_users(game_id: int) -> list[tuple[int, int | None]]:
    """(index, user id) of each seat of a game, in turn order: one light query."""
    return list(
        Seat.objects.filter(game_id=game_id).order_by("index").values_list("index", "user_id")
    )


def seat_of(seats: list[Seat], user) -> Seat | None:
    """The seat ``user`` occupies, if any."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def game_state_for(game_id: int, user) -> dict:
    """The frame a user may see of a game now (their seat's view, or the public one)."""
    game, seats = game_with_seats(game_id)
    seat = seat_of(seats, user)
    return game_payload(game, seats, seat.index if seat else None)


def _table_json(game: Game, user) -> dict:
    seats = list(game.seats.all())
    return {
        "id": game.pk,
        "kind": game.kind,
        "kind_name": game.title,
        "players": len(seats),
        "seats": [
            {
                "username": seat.user.username if seat.user else None,
                "bot": bool(seat.user and seat.user.is_bot),
            }
            for seat in seats
        ],
        "time_control": game.time_control,
        "rated": game.rated,
        "created_by": game.created_by.username if game.created_by else None,
        "invited": game.invited.username if game.invited else None,
        "yours": any(seat.user_id == getattr(user, "pk", None) for seat in seats),
        "invited_you": game.invited_id is not None and game.invited_id == getattr(user, "pk", None),
        "url": reverse("games:game", args=[game.pk]),
    }


def tables_open(user) -> list[dict]:
    """Tables waiting for players that ``user`` may see: open ones and their own challenges."""
    visible = Q(invited__isnull=True)
    if user is not None and user.is_authenticated:
        visible |= Q(invited=user) | Q(created_by=user)
    games = (
        Game.objects.filter(visible, status=Game.Status.OPEN)
        .select_related("created_by", "invited")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("-created_at")[:100]
    )
    return [_table_json(game, user) for game in games]


def games_live(limit: int = 20) -> list[Game]:
    """Games being played now, newest first, for spectators to pick from."""
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("-started_at")[:limit]
    )


def games_of(user, limit: int = 10) -> list[Game]:
    """The user's games still running or waiting for players, newest first."""
    return list(
        Game.objects.filter(seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("-created_at")
        .distinct()[:limit]
    )
