"""Reads for games: a game as one viewer may see it, and the lobby's open tables.

The frames themselves are built by ``games.frames`` (one place for every viewer's
frame); this module reads what they are built from. ``game_payload`` is re-exported
here: one viewer's frame from ``(game, seats, viewer)``.
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from accounts.presence import online_of
from accounts.selectors import followed_ids
from games import held, rows
from games.frames import game_payload as game_payload
from games.hooks import ratings_shown
from games.models import Game, Seat, TimeControl


def game_with_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """A game and its seats in turn order, with their users (one statement: every page's
    arrival reads it, ``games.rows``); ``Game.DoesNotExist`` if there is none."""
    found = rows.game_with_seats(game_id)
    if found is None:
        raise Game.DoesNotExist(f"There is no game {game_id}.")
    return found


def seat_users(game_id: int) -> list[tuple[int, int | None]]:
    """(index, user id) of each seat of a game, in turn order (``games.rows``: every page's
    arrival asks)."""
    return rows.seat_users(game_id)


def seat_of(seats: list[Seat], user) -> Seat | None:
    """The seat ``user`` occupies, if any."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def game_state_for(game_id: int, user, *, hold: bool = False) -> dict:
    """The frame a user may see of a game now (their seat's view, or the public one).

    ``hold``: for a player's socket of this process, whose moves the process then starts
    from what it read here (``games.held``)."""
    game, seats = game_with_seats(game_id)
    seat = seat_of(seats, user)
    frame = game_payload(game, seats, seat.index if seat else None)
    if hold and seat is not None:
        held.offer(game, seats)  # after the frame: with the state it parsed
    return frame


def _table_json(game: Game, user, ratings: dict) -> dict:
    """An open table as ``user`` sees it, in their language (``time_control_text``: each
    socket of the lobby builds its own)."""
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
                "rating": ratings.get((game.kind, seat.user_id)),
            }
            for seat in seats
        ],
        "time_control": game.time_control,
        "time_control_text": game.time_control_text,
        "rated": game.rated,
        "created_by": game.created_by.username if game.created_by else None,
        "invited": game.invited.username if game.invited else None,
        "yours": any(seat.user_id == getattr(user, "pk", None) for seat in seats),
        "invited_you": game.invited_id is not None and game.invited_id == getattr(user, "pk", None),
        "url": reverse("games:game", args=[game.pk]),
    }


def tables_open(user) -> list[dict]:
    """Tables waiting for players that ``user`` may see: open ones (not those seated by
    invite link only), and their own tables and challenges."""
    visible = Q(invited__isnull=True, unlisted=False)
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
    games = list(games)
    ratings = ratings_shown(
        (game.kind, seat.user_id) for game in games for seat in game.seats.all() if seat.user_id
    )
    return [_table_json(game, user, ratings) for game in games]


def game_brief(game: Game) -> dict:
    """What an alert says about a game: public facts only (no position, no hand)."""
    return {
        "game": game.pk,
        "title": f"{game.title} #{game.pk}",
        "time_control": game.time_control,
        "rated": game.rated,
        "live": game.is_live,
        "url": reverse("games:game", args=[game.pk]),
    }


def challenge_json(game: Game) -> dict:
    """A challenge as the invited player's socket sends it."""
    challenger = game.created_by.username if game.created_by else None
    return {"type": "challenge", "from": challenger, **game_brief(game)}


def challenges_to(user) -> list[dict]:
    """The challenges waiting for ``user``'s answer, oldest first (the player's socket)."""
    games = (
        Game.objects.filter(invited=user, status=Game.Status.OPEN)
        .select_related("created_by")
        .order_by("created_at")[:20]
    )
    return [challenge_json(game) for game in games]


def correspondence_of(user, limit: int = 20) -> list[dict]:
    """``user``'s running days-per-move games: whose turn it is and when their time runs
    out, the games waiting for ``user``'s move first (soonest deadline first)."""
    games = (
        Game.objects.filter(
            seats__user=user, status=Game.Status.ACTIVE, correspondence_days__isnull=False
        )
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .distinct()[:limit]
    )
    listed = []
    for game in games:
        seats = list(game.seats.all())
        mover = seats[game.engine_state().to_move]
        listed.append(
            {
                **game_brief(game),
                "opponents": [seat.user for seat in seats if seat.user_id != user.pk],
                "to_move": mover.user,
                "your_turn": mover.user_id == user.pk,
                "deadline": game.deadline,
                # The player to move is on vacation: their clock stands still.
                "paused": game.paused_ms is not None,
            }
        )
    far = timezone.now() + timedelta(days=365)
    listed.sort(key=lambda entry: (not entry["your_turn"], entry["deadline"] or far))
    return listed


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


def followed_now(user, *, games_each: int = 3) -> list[dict]:
    """The players ``user`` follows who are online or playing now (online first), each as
    ``{"user", "online", "games"}``: their running games to watch, newest first."""
    ids = followed_ids(user=user)
    if not ids:
        return []
    online = online_of(ids)
    running = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user_id__in=ids, seats__forfeit="")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("-started_at")
        .distinct()
    )
    playing: dict[int, list[Game]] = {}
    for game in running:
        for seat in game.seats.all():
            if seat.user_id in ids and not seat.forfeit:
                playing.setdefault(seat.user_id, []).append(game)
    users = get_user_model().objects.in_bulk([pk for pk in ids if pk in online or pk in playing])
    entries = [
        {
            "user": users[pk],
            "online": pk in online,
            "games": [
                {
                    **game_brief(game),
                    "players": [seat.user for seat in game.seats.all() if seat.user is not None],
                }
                for game in playing.get(pk, [])[:games_each]
            ],
        }
        for pk in ids
        if pk in users
    ]
    entries.sort(key=lambda entry: not entry["online"])
    return entries


def new_opponent_url(game_id: int) -> str:
    """The lobby with this game's settings chosen, for a game against someone else.

    Against house bots only, the "Play bots now" form (same level); otherwise "Create
    a table", so the same game is offered to whoever comes.
    """
    game, seats = game_with_seats(game_id)
    time_control = (
        f"{game.clock_initial // 60}+{game.clock_increment or 0}"
        if game.is_live
        else f"{game.correspondence_days}d"
    )
    query = {"kind": game.kind, "players": len(seats), "rated": "1" if game.rated else "0"}
    # A tournament's clock (1/2+1, say) is not one the lobby offers: the lobby's own default then.
    if time_control in TimeControl.values:
        query["time_control"] = time_control
    for option in game.definition.rule_options:
        ticked = game.options.get(option.name) == option.value(True)
        query[option.field_name] = "1" if ticked else "0"
    bots = [seat.user for seat in seats if seat.user and seat.user.moved_by_site]
    anchor = "new-table-title"
    if bots and len(bots) == len(seats) - 1:
        query["level"] = bots[0].bot_level
        anchor = "bots-title"
    return f"{reverse('games:lobby')}?{urlencode(query)}#{anchor}"
