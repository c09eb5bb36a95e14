"""Time away: a player's correspondence clocks stand still while they are on vacation.

The player's vacation is ``accounts.Preferences.vacation_until`` (set and ended by
``accounts.services.vacation_start`` / ``vacation_end``, which send ``vacation_changed``
once committed). Each running correspondence game keeps its own copy on the player's
seat (``Seat.away_until``), so a move, a frame or the flag never reads the preferences:
``vacation_sync`` brings one game in step with the player's preferences under the
game's lock. When the player to move is away the game's ``deadline`` is None (the
flag finds nothing) and ``paused_ms`` holds the time their turn had left; when they are
back the deadline is set that far from the moment the clock resumes.

Live (clocked) games are never touched: a player on vacation may still play them.
``vacations_sweep`` (beat) resumes the clocks of vacations that ran out and catches any
game a ``vacation_changed`` missed (a game that started while the preferences changed).
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Preferences
from games.models import Game, Seat
from games.services.turns import is_away
from games.services.writer import _after_commit_game, _with_game


def away_until_of(user_ids, now) -> dict[int, object]:
    """{user id: end of their vacation} of those of ``user_ids`` who are away at ``now``."""
    return dict(
        Preferences.objects.filter(
            user_id__in=[pk for pk in user_ids if pk is not None], vacation_until__gt=now
        ).values_list("user_id", "vacation_until")
    )


def _clock_in_step(game: Game, seats: list[Seat], now) -> bool:
    """Stop the mover's clock if they are away, start it again if they are back; True if
    anything changed."""
    state = game.engine_state()
    mover = seats[state.to_move]
    if mover.forfeit or mover.user is None or mover.user.moved_by_site:
        return False
    if is_away(mover, now):
        if game.deadline is None:
            return False
        # A turn already over stops at nothing left: the flag falls when they are back.
        game.paused_ms = max(0, int((game.deadline - now).total_seconds() * 1000))
        game.deadline = None
        return True
    if game.paused_ms is None:
        return False
    game.deadline = now + timedelta(milliseconds=game.paused_ms)
    game.paused_ms = None
    return True


def vacation_sync(*, game_id: int, user_id: int) -> Game:
    """Bring one running correspondence game in step with ``user_id``'s vacation: their
    seat's ``away_until``, and the clock if it is their turn. Safe to run twice."""

    def sync(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.ACTIVE or game.is_live:
            return
        now = timezone.now()
        # Read under the game's lock: of two changes in a row, the later sync sees the last.
        away = away_until_of([user_id], now).get(user_id)
        changed = False
        for seat in seats:
            if seat.user_id == user_id and seat.away_until != away:
                seat.away_until = away
                seat.save(update_fields=["away_until"])
                changed = True
        if _clock_in_step(game, seats, now):
            changed = True
        if changed:
            game.save()
            _after_commit_game(game)

    return _with_game(game_id, sync)


def _running_correspondence():
    return Seat.objects.filter(
        game__status=Game.Status.ACTIVE,
        game__correspondence_days__isnull=False,
        user__isnull=False,
    )


def vacation_sync_player(*, user_id: int) -> int:
    """``vacation_sync`` every running correspondence game of the player; how many."""
    game_ids = list(
        _running_correspondence().filter(user_id=user_id).values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        vacation_sync(game_id=game_id, user_id=user_id)
    return len(game_ids)


def vacations_sweep() -> dict:
    """The periodic job: resume the clocks of vacations that ran out, and bring in step
    every seat whose copy of its player's vacation differs from the preferences."""
    now = timezone.now()
    ended = Seat.objects.filter(away_until__lte=now, game__status=Game.Status.ACTIVE)
    vacation = F("user__preferences__vacation_until")
    differs = _running_correspondence().filter(
        Q(user__preferences__vacation_until__gt=now, away_until__isnull=True)
        | (
            Q(away_until__isnull=False)
            & (Q(user__preferences__vacation_until__isnull=True) | ~Q(away_until=vacation))
        )
    )
    pairs = set(ended.values_list("game_id", "user_id")) | set(
        differs.values_list("game_id", "user_id")
    )
    for game_id, user_id in sorted(pairs):
        vacation_sync(game_id=game_id, user_id=user_id)
    return {"vacations_synced": len(pairs)}
