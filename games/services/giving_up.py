"""Giving up (resigning, aborting, claiming a win from the gone) and players' signs of life."""

from __future__ import annotations

import json

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from games import frames, live
from games.models import Game, Seat
from games.services.rematch import rematch_lapse
from games.services.turns import _game_call_off, _players_seat_and_state, _seat_forfeit
from games.services.writer import Refused, _with_game


def game_resign(*, game_id: int, user) -> Game:
    """Resign: with 2 players the opponent wins; with more, a bot plays on and you rank last."""

    def resign(game: Game, seats: list[Seat]) -> None:
        seat, _state = _players_seat_and_state(game, seats, user)
        if seat.forfeit:
            raise Refused("forfeited", _("You have already left this game."))
        _seat_forfeit(game, seats, seat, Seat.Forfeit.RESIGNED, timezone.now())

    return _with_game(game_id, resign)


def game_abort(*, game_id: int, user) -> Game:
    """Call the game off before you have made a move: nobody wins, nothing is rated."""

    def abort(game: Game, seats: list[Seat]) -> None:
        seat, _state = _players_seat_and_state(game, seats, user)
        if any(entry["seat"] == seat.index for entry in game.moves):
            raise Refused("too_late", _("You have already moved: resign instead."))
        _game_call_off(game, termination="abort", now=timezone.now())

    return _with_game(game_id, abort)


def game_claim(*, game_id: int, user) -> Game:
    """Claim the win in a live game from opponents gone for 60 seconds or more."""

    def claim(game: Game, seats: list[Seat]) -> None:
        seat, _state = _players_seat_and_state(game, seats, user)
        if not game.is_live:
            raise Refused(
                "not_allowed",
                _("Only live games can be claimed; days per move run out instead."),
            )
        if seat.forfeit:
            raise Refused("forfeited", _("You have already left this game."))
        now = timezone.now()
        gone = [
            other
            for other in seats
            if other.index != seat.index and not other.forfeit and other.is_gone(game, now)
        ]
        if not gone:
            raise Refused("not_allowed", _("No opponent has been gone for 60 seconds."))
        for other in gone:
            if game.status == Game.Status.ACTIVE:
                _seat_forfeit(game, seats, other, Seat.Forfeit.GONE, now)

    return _with_game(game_id, claim)


def seat_seen(*, game_id: int, user) -> bool:
    """Note a sign of life from a player's page (leaving counts: the 60 s start then).

    True if ``user`` has a seat in the game.
    """
    if user is None or not user.is_authenticated:
        return False
    return bool(Seat.objects.filter(game_id=game_id, user=user).update(last_seen=timezone.now()))


def game_counts(game_id: int) -> tuple[int | None, int]:
    """The game's (ply, takebacks) now; (None, 0) if it is gone (a table left empty)."""
    row = Game.objects.filter(pk=game_id).values_list("ply", "takebacks").first()
    return row if row is not None else (None, 0)


def _seat_seen_counts(game_id: int, user) -> tuple[int, int, bool] | None:
    """``seat_seen`` and the game's (ply, takebacks, a rematch offer stands) in one
    statement; None if ``user`` has no seat.

    Raw SQL because the ORM's update returns no columns: signs of life come from every
    open page (each connect, each heartbeat, each close), and this halves their queries.
    Whether an offer stands comes with them, so a page closing on a game without one (a
    game in play, the usual case) asks nothing more.
    """
    if user is None or not user.is_authenticated:
        return None
    if connection.vendor != "postgresql":
        # SQLite (the embedded default) returns only the updated table's columns.
        if not seat_seen(game_id=game_id, user=user):
            return None
        row = (
            Game.objects.filter(pk=game_id)
            .values_list("ply", "takebacks", "status", "rematch_offer", "rematch_id")
            .first()
        )
    else:
        seat_table, game_table = Seat._meta.db_table, Game._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {seat_table} AS seat SET last_seen = %s FROM {game_table} AS game "
                "WHERE seat.game_id = %s AND seat.user_id = %s AND game.id = seat.game_id "
                "RETURNING game.ply, game.takebacks, game.status, game.rematch_offer, "
                "game.rematch_id",
                [timezone.now(), game_id, user.pk],
            )
            row = cursor.fetchone()
    if row is None:
        return None
    ply, takebacks, status, offer, rematch_id = row
    if isinstance(offer, str):  # a raw cursor's JSON comes as text
        offer = json.loads(offer)
    offer_stands = status == Game.Status.FINISHED and bool(offer) and rematch_id is None
    return ply, takebacks, offer_stands


def presence_record(
    *, game_id: int, user, online: bool, seat: int
) -> tuple[int | None, int, dict | None]:
    """Note a player's sign of life (or leaving): the game's (ply, takebacks), and the
    ``presence`` frame every socket of the game is to be sent (None if not seated now).

    ``seat`` is what the player's socket learnt when it connected (it never changes once
    a game has started), so a sign of life costs one statement: the seat's update, which
    returns the game's counts. ``presence_note`` sends the frame; a socket may send it
    itself, from its event loop, after its own snapshot.
    """
    counts = _seat_seen_counts(game_id, user)
    still_seated = counts is not None
    if still_seated:
        ply, takebacks, offer_stands = counts
        if offer_stands and not online:
            rematch_lapse(game_id=game_id, user=user)
    else:
        ply, takebacks = game_counts(game_id)
    frame = None
    if still_seated and ply is not None:
        frame = frames.presence_frame(seat=seat, online=online, ply=ply, takebacks=takebacks)
    return ply, takebacks, frame


def presence_note(
    *, game_id: int, user, online: bool, seat: int, seat_count: int
) -> tuple[int | None, int]:
    """``presence_record``, then tell every socket of the game. Returns (ply, takebacks)."""
    ply, takebacks, frame = presence_record(game_id=game_id, user=user, online=online, seat=seat)
    if frame is not None:
        live.send_each(live.everyone_groups(game_id, seat_count), frame)
    return ply, takebacks
