"""Games a process holds in memory between the moves its own sockets make.

A move read its game's row and seats (with their users) afresh under the row's lock, and
building those models was the largest part of a move's CPU (docs/BENCHMARKS.md, "Issue
12, sixth round"). A process that has just written a game keeps the objects it wrote, and
its next move of that game starts from them. The database stays the truth: the move
still locks the row, on condition that its ``version`` is the one held, so a write from
anywhere else (a bot's move from a worker, a resignation, a clock, a second daphne) makes
the copy stale and the move reads the game afresh as before.

An entry is taken out while a move uses it, so two threads never share one; copies of
what the move wrote go back once its transaction committed, and the objects themselves
stay with the move's pushes, which may build frames from them later.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import UTC, datetime

from django.db import connection
from django.utils import timezone

from games.models import Game, Seat

#: Games held per process; the least recently moved go first (a game is small: its
#: state, move list and seats).
HELD_MAX = 2000

_held: OrderedDict[int, tuple[Game, list[Seat]]] = OrderedDict()
_lock = threading.Lock()


def take(game_id: int, ply: int) -> tuple[Game, list[Seat]] | None:
    """The held game and seats if they are at ``ply`` (the move's own ply), else None.

    A move for another ply than the held one is stale, or follows a change made
    elsewhere: either way the move reads the game afresh.
    """
    with _lock:
        held = _held.pop(game_id, None)
    if held is None or held[0].ply != ply:
        return None
    return held


def keep(game: Game, seats: list[Seat]) -> None:
    """Hold a game just committed by this process, while it is being played."""
    if game.status != Game.Status.ACTIVE:
        return
    with _lock:
        _held[game.pk] = (game, seats)
        _held.move_to_end(game.pk)
        while len(_held) > HELD_MAX:
            _held.popitem(last=False)


def lock_if_current(game: Game, seats: list[Seat]) -> bool:
    """Lock the game's row if it is still at the held ``version``; False if it moved on.

    In a transaction. The seats' signs of life (``last_seen``) are written without the
    game's lock (every heartbeat of every page), so they are read again here: one
    statement, which frames need for who is online.
    """
    quote = connection.ops.quote_name
    game_table, seat_table = quote(Game._meta.db_table), quote(Seat._meta.db_table)
    # SQLite (the embedded default) has no row locks: its one writer at a time serves.
    lock = " FOR UPDATE OF game" if connection.features.has_select_for_update_of else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seat.{quote('index')}, seat.last_seen FROM {game_table} AS game "
            f"JOIN {seat_table} AS seat ON seat.game_id = game.id "
            f"WHERE game.id = %s AND game.version = %s AND game.seed = %s{lock}",
            # The deal's seed too: SQLite may give a deleted game's id to a new one.
            [game.pk, game.version, game.seed],
        )
        rows = cursor.fetchall()
    if len(rows) != len(seats):
        return False
    last_seen = dict(rows)
    for seat in seats:
        seat.last_seen = _aware(last_seen[seat.index])
    return True


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite's driver gives the stored UTC time without its zone.
    if moment is not None and timezone.is_naive(moment):
        return timezone.make_aware(moment, UTC)
    return moment
