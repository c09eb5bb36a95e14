"""Reads of a page's arrival, without building a query: a game, its seats and their
players in one statement, and who sits where.

Every page's arrival reads its game's snapshot, and every game's first move reads the
game under its lock. Through the ORM that was two queries (the game, then its seats with
their users), and building and compiling them cost more CPU than the database spent
answering: 1.6 ms of a page's arrival (docs/decisions/0009-hot-reads-written-once.md).
Here the statement is written once per database and the rows become the same model
objects the ORM would make (``kit.rows``), the seat's user and game cached on it
as ``select_related`` and the related manager do.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Game, Seat
from kit.rows import Columns


@functools.cache
def _statement(vendor: str) -> tuple[str, Columns, Columns, Columns]:
    quote = connection.ops.quote_name
    game, seat, user = Columns(Game, "g"), Columns(Seat, "s"), Columns(get_user_model(), "u")
    seat_game, seat_user = Seat._meta.get_field("game"), Seat._meta.get_field("user")
    sql = (
        f"SELECT {', '.join(game.sql + seat.sql + user.sql)} "
        f"FROM {quote(Game._meta.db_table)} AS g "
        f"LEFT JOIN {quote(Seat._meta.db_table)} AS s "
        f"ON s.{quote(seat_game.column)} = g.{quote(Game._meta.pk.column)} "
        f"LEFT JOIN {quote(get_user_model()._meta.db_table)} AS u "
        f"ON u.{quote(get_user_model()._meta.pk.column)} = s.{quote(seat_user.column)} "
        f"WHERE g.{quote(Game._meta.pk.column)} = %s ORDER BY s.{quote('index')}"
    )
    return sql, game, seat, user


@functools.cache
def _lock_statement(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT 1 FROM {quote(Game._meta.db_table)} "
        f"WHERE {quote(Game._meta.pk.column)} = %s FOR UPDATE"
    )


def game_with_seats(game_id: int, *, lock: bool = False) -> tuple[Game, list[Seat]] | None:
    """The game and its seats in turn order, each seat's user loaded; None if there is no
    such game. ``lock``: the game's row is locked for the transaction first (PostgreSQL).

    The lock is a statement of its own, before the read: a statement that waits for a
    row lock reads that row again once it has it, but the rows it joins to it as they
    were when it started, so seats changed by the writer it waited for would be stale.
    """
    sql, game_columns, seat_columns, user_columns = _statement(connection.vendor)
    with connection.cursor() as cursor:
        # SQLite (the embedded default) has no row locks: its one writer at a time serves.
        if lock and connection.features.has_select_for_update:
            cursor.execute(_lock_statement(connection.vendor), [game_id])
        cursor.execute(sql, [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    games, seats_at = len(game_columns.fields), len(seat_columns.fields)
    game = game_columns.instance(rows[0][:games])
    seats = []
    game_field, user_field = Seat._meta.get_field("game"), Seat._meta.get_field("user")
    for row in rows:
        seat_values = row[games : games + seats_at]
        if seat_values[0] is None:  # a game without seats: its one row has none
            continue
        seat = seat_columns.instance(seat_values)
        game_field.set_cached_value(seat, game)
        user_values = row[games + seats_at :]
        user_field.set_cached_value(
            seat, None if user_values[0] is None else user_columns.instance(user_values)
        )
        seats.append(seat)
    return game, seats


@functools.cache
def _seat_users_statement(vendor: str) -> str:
    quote = connection.ops.quote_name
    game, user = Seat._meta.get_field("game"), Seat._meta.get_field("user")
    return (
        f"SELECT {quote('index')}, {quote(user.column)} FROM {quote(Seat._meta.db_table)} "
        f"WHERE {quote(game.column)} = %s ORDER BY {quote('index')}"
    )


def seat_users(game_id: int) -> list[tuple[int, int | None]]:
    """(index, user id) of each seat of a game, in turn order."""
    with connection.cursor() as cursor:
        cursor.execute(_seat_users_statement(connection.vendor), [game_id])
        return [(index, user_id) for index, user_id in cursor.fetchall()]
