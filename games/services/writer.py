"""The one writer of a game, and what is heard of its changes after the commit.

Every change to a running game (a move from a socket or from HTTP, a bot's move, a clock
running out, a resignation) goes through ``_with_game``, which locks the game's row with
``select_for_update`` for the whole read-check-write. Pushes to sockets and tasks are
queued with ``transaction.on_commit`` so nobody hears of a change that did not happen.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from typing import Any

from celery import current_app as current_celery_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games import frames, held, live, rows
from games.models import Game, Seat
from games.score_batches import ScoreBatches
from kit import metrics
from kit.socket_db import serving_loop
from kit.text import sentence

#: Named for the package: the move lines keep the logger name they had before the split.
log = logging.getLogger("games.services")


class Refused(Exception):
    """A request the game turns down; nothing changed (except a flag it discovered).

    ``code`` is for programs (see docs/PROTOCOL.md), the message is for people: always a
    sentence (capital letter, full stop), whatever lower-case error it was built from.
    """

    def __init__(self, code: str, reason: str):
        reason = sentence(reason)
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _with_game(
    game_id: int, change: Callable[[Game, list[Seat]], Any], *, held_at: int | None = None
) -> Game:
    """Run ``change(game, seats)`` with the game's row locked; raise a Refused it returns.

    ``change`` raises ``Refused`` to refuse with nothing written, or returns one to
    refuse after committing what it wrote (a flag found while refusing a move).

    ``held_at``: a move's ply. The move starts from the game this process holds
    (``games.held``) if nobody else wrote it since, and the game is held again after;
    a held copy a change fails on may be half changed, so it is dropped, not held again.
    On PostgreSQL the held move's writes go out as one statement that checks the version
    itself (``held.change_in_one_statement``); whatever that cannot take is done again
    here under the row lock, from a fresh read.
    """

    def written(game: Game, seats: list[Seat]) -> Any:
        outcome = change(game, seats)
        # What was just written, for the push after the commit (no second read).
        game.committed_seats = seats
        return outcome

    held_game = held.take(game_id, held_at) if isinstance(held_at, int) else None
    game = outcome = None
    if held_game is not None and held.one_statement():
        try:
            held.change_in_one_statement(*held_game, written)
        except held.Retake:
            held_game = None  # the copy may be half changed: read afresh
        else:
            game, seats = held_game
    if game is None:
        with transaction.atomic():
            if held_game is not None and held.lock_if_current(*held_game):
                game, seats = held_game
            else:
                game, seats = _game_locked(game_id)
            outcome = written(game, seats)
    if held_at is not None:
        # Copies: the caller may read what it gets back while the next move changes the held.
        held.keep(copy.copy(game), [copy.copy(seat) for seat in seats])
    if isinstance(outcome, Refused):
        raise outcome
    return game


def _game_locked(game_id: int) -> tuple[Game, list[Seat]]:
    found = rows.game_with_seats(game_id, lock=True)
    if found is None:
        raise Refused("not_found", _("There is no game %(game)s.") % {"game": game_id})
    return found


def _move_counted(game: Game, seat: Seat) -> None:
    """Count and log a move once it is committed: ids and ply only, never the move (its
    tiles may be hidden from some players)."""
    kind, by, game_id, ply, index = (
        game.kind,
        "bot" if game.bot_to_move else "player",
        game.pk,
        game.ply,
        seat.index,
    )

    def done() -> None:
        metrics.MOVES.labels(kind, by).inc()
        log.info("move played", extra={"game_id": game_id, "ply": ply, "seat": index, "by": by})

    transaction.on_commit(done)


def _game_frames_push(game_id: int, frame_type: str, game: Game, seats: list[Seat] | None) -> None:
    """Build every viewer's frame of a committed change once, then send them."""
    if seats is None:
        # A change made outside the one writer (a new game): read it as committed.
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return
        seats = list(game.seats.select_related("user").order_by("index"))
    live.push_frames(frames.game_frames(game, seats, frame_type))


def _after_commit_game(game: Game, frame_type: str = "state") -> None:
    """After the commit, send every socket of the game its own view of the game now.

    ``game`` and the seats ``_with_game`` kept are the objects just committed by the
    one writer: the frames are built from them instead of reading the game again.
    """
    game_id = game.pk
    transaction.on_commit(
        lambda: _game_frames_push(game_id, frame_type, game, getattr(game, "committed_seats", None))
    )


def _after_commit_lobby() -> None:
    transaction.on_commit(live.lobby_changed)


def _task_queue(name: str, *args) -> None:
    """Queue the Celery task ``games.tasks.<name>`` (looked up by name: ``games.tasks``
    calls these services, so importing it here would make an import circle; the app's
    ``ready`` registers the tasks in every process)."""
    current_celery_app.tasks[f"games.tasks.{name}"].delay(*args)


def _queue_bot(game: Game) -> None:
    game_id, ply = game.pk, game.ply
    # robust: a broker blink must not fail the committed move; the sweep queues it again.
    transaction.on_commit(lambda: _task_queue("bot_move", game_id, ply), robust=True)


#: Scorings of games ended on a socket, queued in batches (``games.score_batches``).
_score_batches = ScoreBatches(lambda game_ids: _task_queue("games_score", game_ids))


def _queue_score(game: Game) -> None:
    game_id = game.pk
    if serving_loop() is not None and not settings.CELERY_TASK_ALWAYS_EAGER:
        # A socket's move: off its thread, with the rest of the wave of game ends.
        transaction.on_commit(lambda: _score_batches.add(game_id))
        return
    transaction.on_commit(lambda: _task_queue("game_score", game_id), robust=True)
