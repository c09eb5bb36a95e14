"""Games a process holds in memory between the moves its own sockets make.

A move read its game's row and seats (with their users) afresh under the row's lock, and
building those models was the largest part of a move's CPU
(docs/decisions/0006-a-process-holds-its-games.md). A process that has just written a game
keeps the objects it wrote, and its next move of that game starts from them. The database
stays the truth: the move still locks the row, on condition that its ``version`` is the one
held, so a write from anywhere else (a bot's move from a worker, a resignation, a clock, a
second web process) makes the copy stale and the move reads the game afresh as before.

An entry is taken out while a move uses it, so two threads never share one; copies of
what the move wrote go back once its transaction committed, and the objects themselves
stay with the move's pushes, which may build frames from them later.

On PostgreSQL a held move is one statement (``change_in_one_statement``): the change is
worked out on the copy first, and its writes go out together, on condition that the row
is still at the held version, with the seats' signs of life read back. Five round trips
(BEGIN, the locking read, the seat's and the game's UPDATE, COMMIT) cost about three
times the client CPU and half again the server's of that one prepared statement
(docs/decisions/0011-one-prepared-statement-per-move.md). A copy that turns out stale, a change
that refuses (the refusal may come from the stale copy), or one that needs any other
SQL is done again on the locked path from a fresh read.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import psycopg
from django.db import connection, transaction
from django.utils import timezone
from psycopg.pq import TransactionStatus

from games.models import Game, Seat, set_clause, writes_deferred

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


def offer(game: Game, seats: list[Seat]) -> None:
    """Hold a game a player's page of this process just read (its moves will come here),
    unless a copy is held already: the page's first move then starts from it too."""
    if game.status != Game.Status.ACTIVE:
        return
    with _lock:
        if game.pk in _held:
            return
    keep(copy.copy(game), [copy.copy(seat) for seat in seats])


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


class Retake(Exception):
    """The held copy cannot take this change: do it on the locked path from a fresh read."""


def one_statement() -> bool:
    """True where a held move is written in one statement (PostgreSQL)."""
    return connection.vendor == "postgresql"


def change_in_one_statement(
    game: Game, seats: list[Seat], change: Callable[[Game, list[Seat]], Any]
) -> None:
    """Run ``change(game, seats)`` on the held copy and write what it wrote in one
    statement if the row is still at the held version; raise ``Retake`` otherwise.

    Nothing is written unless the whole change is, and the change's after-commit work
    runs only then (it runs in a transaction block, which Django commits). A refusal,
    raised or returned, and SQL of the change's own (a save of the whole row) are a
    ``Retake``.
    """
    version = game.version
    with transaction.atomic():
        try:
            with writes_deferred() as writes, connection.execute_wrapper(_no_other_sql):
                outcome = change(game, seats)
        except Exception as error:
            raise Retake from error
        if outcome is not None or not _write_if_current(game, seats, writes, version):
            raise Retake
    game.version = version + 1


def _no_other_sql(execute, sql, params, many, context):
    raise Retake("the change runs SQL of its own")


def _write_if_current(game: Game, seats: list[Seat], writes: list, version: int) -> bool:
    fields: dict[int, dict[str, None]] = {}
    for instance, names in writes:
        if instance is not game and not any(instance is seat for seat in seats):
            return False
        fields.setdefault(id(instance), {}).update(dict.fromkeys(names))
    game_fields = tuple(fields.pop(id(game), ()))
    if not game_fields:
        return False
    seat_writes = [(seat, tuple(fields[id(seat)])) for seat in seats if id(seat) in fields]
    statement, game_columns, seat_columns = _one_statement(
        game_fields, tuple(names for _, names in seat_writes)
    )
    params = [*game.values_to_write(game_columns), game.pk, version]
    for (seat, _), columns in zip(seat_writes, seat_columns, strict=True):
        params += [*seat.values_to_write(columns), seat.pk]
    rows = _execute_alone(statement, params)
    if len(rows) != len(seats):
        return False
    last_seen = dict(rows)
    written = {seat.index for seat, names in seat_writes if "last_seen" in names}
    for seat in seats:
        if seat.index not in written:
            seat.last_seen = last_seen[seat.index]
    return True


def _execute_alone(statement: str, params: list) -> list[tuple]:
    """Run one prepared statement; on its own (autocommit) unless a transaction has begun.

    The caller's transaction block has sent nothing yet (the change ran no SQL), so the
    statement needs no BEGIN and COMMIT of its own: the block's commit then finds nothing
    to commit. Inside an outer transaction (a test's, a caller's) it joins that one.
    """
    connection.ensure_connection()
    raw = connection.connection
    alone = raw.info.transaction_status == TransactionStatus.IDLE
    if alone:
        raw.autocommit = True
    # Django's own exceptions, as from its cursors (and a connection that failed is
    # checked before it is used again).
    with connection.wrap_database_errors:
        try:
            with psycopg.Cursor(raw) as cursor:
                cursor.execute(statement, params, prepare=True)
                return cursor.fetchall()
        finally:
            if alone and not raw.broken:
                raw.autocommit = False


@functools.cache
def _one_statement(game_fields: tuple[str, ...], seat_fields: tuple[tuple[str, ...], ...]):
    """The statement writing ``game_fields`` of a game at a version and ``seat_fields`` of
    each written seat, answering every seat's (index, last_seen) if it wrote, nothing if
    the version had moved on. Each seat's UPDATE reads the game's, so the game's row is
    locked first, as everywhere else."""
    quote = connection.ops.quote_name
    game_set, game_columns = set_clause(Game, game_fields)
    game_table, seat_table = quote(Game._meta.db_table), quote(Seat._meta.db_table)
    parts = [
        f"game AS (UPDATE {game_table} SET {game_set} WHERE id = %s AND version = %s RETURNING id)"
    ]
    seat_columns = []
    for number, names in enumerate(seat_fields):
        seat_set, columns = set_clause(Seat, names)
        seat_columns.append(columns)
        parts.append(
            f"seat_{number} AS (UPDATE {seat_table} SET {seat_set} "
            f"WHERE id = %s AND game_id = (SELECT id FROM game) RETURNING id)"
        )
    statement = (
        f"WITH {', '.join(parts)} SELECT seat.{quote('index')}, seat.last_seen "
        f"FROM {seat_table} AS seat WHERE seat.game_id = (SELECT id FROM game)"
    )
    return statement, game_columns, seat_columns
