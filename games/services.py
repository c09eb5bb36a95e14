"""Writes for games: tables, seats, moves, clocks, endings and scoring.

One writer per game: every change to a running game (a move from a socket or
from HTTP, a bot's move, a clock running out, a resignation) goes through
``_with_game``, which locks the game's row with ``select_for_update`` for the
whole read-check-write. Pushes to sockets and bot tasks are queued with
``transaction.on_commit`` so nobody hears of a change that did not happen.
"""

from __future__ import annotations

import copy
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import current_app as current_celery_app
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.services import bot_ensure
from engine.errors import EngineError
from engine.games import game_definition
from games import engine_text, frames, held, live, rows, user_events
from games.models import Game, Seat
from games.score_batches import ScoreBatches
from games.signals import game_finished, game_scored
from games.thinking import bot_choose
from kit import metrics
from kit.socket_db import serving_loop
from kit.text import sentence

#: Longest move text accepted (the longest legal notation is far shorter).
MOVE_MAX_LENGTH = 64
#: The bot that plays a forfeited seat's remaining turns.
STAND_IN_LEVEL = "greedy"
#: A bot's turn older than this is queued again by the periodic sweep (every 5 s): a
#: worker killed outright (kill -9) never hands its task back, so this bounds the wait.
#: The strong bot thinks ~1 s; a turn still queued behind others is queued again at most
#: once per BOT_REQUEUE_EVERY, and the ply check makes the spare task a no-op.
BOT_OVERDUE = timedelta(seconds=5)
BOT_REQUEUE_EVERY = 15
#: A finished game still unscored after this is scored again by the sweep.
SCORE_OVERDUE = timedelta(seconds=20)
#: The bot levels, each as people read it (the lobby's and the table's choices).
BOT_LEVEL_CHOICES = tuple(User.BotLevel.choices)
BOT_LEVELS = tuple(User.BotLevel.values)
#: What a move that does not end the game changes in its row (``_move_apply``, ``_turn_begin``):
#: saving only these spares every move compiling and sending the rest of the row.
MOVE_FIELDS = (
    "moves",
    "ply",
    "takeback_offer",
    "state",
    "turn_started_at",
    "bot_to_move",
    "deadline",
)


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


# --------------------------------------------------------------------------- the one writer


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


log = logging.getLogger(__name__)


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


# --------------------------------------------------------------------------- creating tables


def players_refusal(game) -> str:
    """Why a table of ``game`` (an engine descriptor) cannot have the number of players
    asked for: ``Topiary is for 2 to 4 players.``"""
    low, high = game.seats
    if low == high:
        return ngettext(
            "%(game)s is for %(count)s player.", "%(game)s is for %(count)s players.", low
        ) % {"game": game.title, "count": low}
    return _("%(game)s is for %(low)s to %(high)s players.") % {
        "game": game.title,
        "low": low,
        "high": high,
    }


def _options_checked(kind: str, players: int, options: dict | None) -> dict:
    """The table's rule options as the engine reads them; Refused if it does not."""
    try:
        return game_definition(kind).table_options(players, options)
    except EngineError as error:
        raise Refused("bad_request", engine_text.error_message(error)) from None


def _time_checked(clock_initial, clock_increment, correspondence_days) -> dict:
    live_clock = clock_initial is not None
    if live_clock == (correspondence_days is not None):
        raise Refused("bad_request", _("A table has either a live clock or days per move."))
    if live_clock and (clock_initial <= 0 or (clock_increment or 0) < 0):
        raise Refused("bad_request", _("A live clock needs a positive initial time."))
    if not live_clock and correspondence_days <= 0:
        raise Refused("bad_request", _("Days per move must be at least 1."))
    return {
        "clock_initial": clock_initial,
        "clock_increment": (clock_increment or 0) if live_clock else None,
        "correspondence_days": correspondence_days,
    }


def _new_game(
    *, kind, players, options, rated, time, created_by, invited=None, in_event=False
) -> Game:
    return Game.objects.create(
        kind=kind,
        options=_options_checked(kind, players, options),
        seed=secrets.randbits(62),
        rated=rated,
        created_by=created_by,
        invited=invited,
        in_event=in_event,
        **time,
    )


def _check_human(user) -> None:
    if user is None or not user.is_authenticated:
        raise Refused("not_signed_in", _("Sign in to play."))
    if user.moved_by_site:
        raise Refused("bad_request", _("Bots are seated by the site, not by themselves."))


def table_create(
    *,
    user,
    kind: str,
    players: int = 2,
    options: dict | None = None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
    invited=None,
) -> Game:
    """An open table with ``user`` in seat 0, waiting for players (or for ``invited`` only)."""
    _check_human(user)
    time = _time_checked(clock_initial, clock_increment, correspondence_days)
    with transaction.atomic():
        game = _new_game(
            kind=kind,
            players=players,
            options=options,
            rated=rated,
            time=time,
            created_by=user,
            invited=invited,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user if i == 0 else None) for i in range(game.seat_count)
        )
        _after_commit_lobby()
        user_events.challenge_sent(game)
    return game


def challenge_create(
    *,
    user,
    opponent_username: str,
    kind: str,
    options: dict | None = None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
) -> Game:
    """Challenge one player by name to a 2-player game; a house bot accepts at once.

    Except when the challenger is an outside bot: the house bot then answers after
    ``settings.HOUSE_BOT_ANSWER_DELAY`` seconds, never faster than a person is answered
    (issue 16), so a program cannot farm games against the house bots at machine speed.
    """
    _check_human(user)
    opponent = User.objects.filter(username__iexact=opponent_username.strip()).first()
    if opponent is None:
        raise Refused(
            "bad_request",
            _("There is no player called %(name)s.") % {"name": repr(opponent_username)},
        )
    if opponent.pk == user.pk:
        raise Refused("bad_request", _("You cannot challenge yourself."))
    outside_bot = user.is_bot and not user.moved_by_site
    if opponent.moved_by_site and not outside_bot:
        return game_create(
            kind=kind,
            players=[user, opponent],
            options=options,
            rated=rated,
            clock_initial=clock_initial,
            clock_increment=clock_increment,
            correspondence_days=correspondence_days,
            created_by=user,
        )
    game = table_create(
        user=user,
        kind=kind,
        players=2,
        options=options,
        rated=rated,
        clock_initial=clock_initial,
        clock_increment=clock_increment,
        correspondence_days=correspondence_days,
        invited=opponent,
    )
    if opponent.moved_by_site:
        _queue_house_bot_answer(game)
    return game


def _queue_house_bot_answer(game: Game) -> None:
    game_id, delay = game.pk, settings.HOUSE_BOT_ANSWER_DELAY
    task = current_celery_app.tasks["games.tasks.house_bot_answer"]
    # robust: if the broker blinks, the challenge stays open for the challenger to withdraw.
    transaction.on_commit(lambda: task.apply_async((game_id,), countdown=delay), robust=True)


def house_bot_answer(*, game_id: int) -> None:
    """The invited house bot accepts a challenge; nothing if it was accepted or withdrawn."""

    def accept(game: Game, seats: list[Seat]) -> None:
        invited = game.invited
        if game.status != Game.Status.OPEN or invited is None or not invited.moved_by_site:
            return
        _seat_fill(game, seats, [invited])

    try:
        _with_game(game_id, accept)
    except Refused as refusal:
        if refusal.code != "not_found":  # withdrawn: the table was removed
            raise


def bot_pick(level: str, *, besides=()):
    """A bot playing at ``level`` who is not one of ``besides``: the house bot first.

    A table of several bots of one level gets numbered companions of the house
    bot (GreedyBot2, ...), so each seat is its own player for the ratings.
    """
    if level not in BOT_LEVELS:
        raise Refused(
            "bad_request",
            _("Unknown bot level %(level)s: choose %(levels)s.")
            % {"level": repr(level), "levels": ", ".join(BOT_LEVELS)},
        )
    taken = {user.pk for user in besides if user is not None}
    house = bot_ensure(level=level)
    if house.pk not in taken:
        return house
    users = User.objects
    bot = users.filter(is_bot=True, bot_level=level).exclude(pk__in=taken).order_by("pk").first()
    if bot is not None:
        return bot
    number = 2
    while True:
        while users.filter(username__iexact=f"{house.username}{number}").exists():
            number += 1
        try:
            # Two tables created at once may both pick this number; the unique
            # username decides, and the loser takes the next one.
            with transaction.atomic():
                return users.create(
                    username=f"{house.username}{number}",
                    is_bot=True,
                    bot_level=level,
                    password=make_password(None),
                )
        except IntegrityError:
            number += 1


def bot_game_create(
    *,
    user,
    kind: str,
    level: str,
    players: int = 2,
    options: dict | None = None,
    rated: bool = False,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
) -> Game:
    """Play bots right now: ``user`` in seat 0 and bots of ``level`` in the other seats."""
    _check_human(user)
    seated = [user]
    for _seat in range(players - 1):
        seated.append(bot_pick(level, besides=seated))
    return game_create(
        kind=kind,
        players=seated,
        options=options,
        rated=rated,
        clock_initial=clock_initial,
        clock_increment=clock_increment,
        correspondence_days=correspondence_days,
        created_by=user,
    )


def game_create(
    *,
    kind: str,
    players: list,
    options: dict | None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
    first_player: int | None = None,
    created_by=None,
    in_event: bool = False,
) -> Game:
    """A started game with ``players`` (users, in seat order) in its seats.

    ``in_event``: a tournament's game (no short-game abort, no rematch).
    """
    if len({user.pk for user in players}) != len(players):
        raise Refused("bad_request", _("A player can take only one seat at a table."))
    time = _time_checked(clock_initial, clock_increment, correspondence_days)
    with transaction.atomic():
        game = _new_game(
            kind=kind,
            players=len(players),
            options=options,
            rated=rated,
            time=time,
            created_by=created_by,
            in_event=in_event,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user) for i, user in enumerate(players)
        )
        _game_start(game, list(game.seats.select_related("user").order_by("index")), first_player)
    return game


def _game_start(game: Game, seats: list[Seat], first_player: int | None = None) -> None:
    """Deal, start the clocks and hand the first turn over."""
    module = game.engine
    try:
        state = module.new_game(
            module.Options.from_json(game.options), game.seed, first_player=first_player
        )
    except EngineError as error:
        raise Refused("bad_request", engine_text.error_message(error)) from None
    now = timezone.now()
    game.state = game.initial = state.to_json()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    for seat in seats:
        seat.clock_ms = game.clock_initial * 1000 if game.is_live else None
        seat.last_seen = None
        seat.save(update_fields=["clock_ms", "last_seen"])
    _turn_begin(game, seats, state, now)
    game.save()
    _after_commit_game(game)
    _after_commit_lobby()
    user_events.game_started(game, seats)


def table_join(*, game_id: int, user) -> Game:
    """Take the first free seat at an open table; the game starts when the last seat is taken."""
    _check_human(user)

    def join(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("This table is no longer waiting for players."))
        if any(seat.user_id == user.pk for seat in seats):
            raise Refused("already_seated", _("You already sit at this table."))
        if game.invited_id is not None and game.invited_id != user.pk:
            raise Refused("not_invited", _("This table is a challenge to another player."))
        _seat_fill(game, seats, [user])

    return _with_game(game_id, join)


def _seat_fill(game: Game, seats: list[Seat], users: list) -> None:
    free = [seat for seat in seats if seat.user_id is None]
    for seat, user in zip(free, users, strict=False):
        seat.user = user
        seat.save(update_fields=["user"])
    if all(seat.user_id is not None for seat in seats):
        game.invited = None
        _game_start(game, seats)
    else:
        _after_commit_game(game)
        _after_commit_lobby()


def table_fill_with_bots(*, game_id: int, user, level: str) -> Game:
    """Seat bots of ``level`` in every free seat of a table ``user`` sits at, and start it."""

    def fill(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("This table is no longer waiting for players."))
        if not any(seat.user_id == user.pk for seat in seats):
            raise Refused("not_seated", _("Only a player at the table may call in bots."))
        if game.invited_id is not None:
            raise Refused("not_allowed", _("A challenge waits for the player it is addressed to."))
        seated = [seat.user for seat in seats if seat.user is not None]
        bots = []
        for _free in range(len(seats) - len(seated)):
            bots.append(bot_pick(level, besides=seated + bots))
        _seat_fill(game, seats, bots)

    return _with_game(game_id, fill)


def table_leave(*, game_id: int, user) -> Game | None:
    """Leave an open table (or decline a challenge); a table left empty is removed."""

    def leave(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("The game has started: resign or abort instead."))
        mine = [seat for seat in seats if seat.user_id == user.pk]
        if not mine and game.invited_id != user.pk:
            raise Refused("not_seated", _("You do not sit at this table."))
        for seat in mine:
            seat.user = None
            seat.save(update_fields=["user"])
        humans = [seat for seat in seats if seat.user is not None and not seat.user.moved_by_site]
        if not humans or game.invited_id == user.pk:
            user_events.challenge_gone(game, by=user)
            game.delete()
        else:
            _after_commit_game(game)
        _after_commit_lobby()

    return _with_game(game_id, leave)


# --------------------------------------------------------------------------- turns and clocks


def _turn_begin(game: Game, seats: list[Seat], state, now) -> None:
    """Hand the turn to the seat to move: its deadline, and a bot task if a bot plays it."""
    game.turn_started_at = now
    mover = seats[state.to_move]
    game.bot_to_move = mover.played_by_bot
    if mover.forfeit:
        game.deadline = None
    elif game.is_live:
        game.deadline = now + timedelta(milliseconds=mover.clock_ms)
    elif mover.user.moved_by_site:
        game.deadline = None
    else:
        game.deadline = now + timedelta(days=game.correspondence_days)
    if game.bot_to_move:
        _queue_bot(game)
    else:
        user_events.turn_came(game, mover)


def _out_of_time(game: Game, seats: list[Seat], state, now) -> Seat | None:
    """The seat to move if its time has run out (clock or days per move), else None."""
    mover = seats[state.to_move]
    if mover.forfeit or game.deadline is None or now < game.deadline:
        return None
    return mover


def _seat_forfeit(game: Game, seats: list[Seat], seat: Seat, forfeit: str, now) -> None:
    """``seat`` gives up: with 2 players the game ends, with more a bot plays on for it.

    A rated game left before every player has made a move is aborted instead: nobody
    wins, nothing is rated (docs/RULES_DECISIONS.md, "Short games are aborted").
    """
    seat.forfeit = forfeit
    if forfeit == Seat.Forfeit.TIME and seat.clock_ms is not None:
        seat.clock_ms = 0
    seat.save(update_fields=["forfeit", "clock_ms"])
    if _aborts_when_left(game, seats):
        _game_call_off(game, termination=forfeit, now=now)
        return
    if game.seat_count == 2:
        _game_end(game, termination=forfeit, now=now)
        return
    state = game.engine_state()
    if state.to_move == seat.index:
        _turn_begin(game, seats, state, now)
    game.save()
    _after_commit_game(game)


def _aborts_when_left(game: Game, seats: list[Seat]) -> bool:
    """True while a rated game outside a tournament has a player who has not moved yet.

    lichess aborts a game of fewer than two moves, one per player: here every seat must
    have made a move (at 3-4 players too), so no rating moves on a game someone never
    played. A tournament's no-show loses instead, so the event can go on.
    """
    if not game.rated or game.in_event:
        return False
    moved = {entry["seat"] for entry in game.moves}
    return any(seat.index not in moved for seat in seats)


#: What stopping a game changes in its row, besides what led to it (``_game_stop``).
STOP_FIELDS = ("status", "finished_at", "termination", "deadline", "bot_to_move")


def _game_stop(
    game: Game, status: str, *, termination: str, now, changed: tuple[str, ...] | None = None
) -> None:
    """Stop the game's clocks and bots at ``status`` (finished or aborted), and save it.

    ``changed``: the only other fields changed (a move's), written with the stop alone;
    without it the whole row is saved.
    """
    game.status = status
    game.finished_at = now
    game.termination = termination
    game.deadline = None
    game.bot_to_move = False
    if changed is None:
        game.save()
    else:
        game.write(tuple(dict.fromkeys(changed + STOP_FIELDS)))


def _game_call_off(game: Game, *, termination: str, now) -> None:
    """Abort the game: nobody wins, nothing is scored or rated (``termination`` says why)."""
    _game_stop(game, Game.Status.ABORTED, termination=termination, now=now)
    _after_commit_game(game)
    transaction.on_commit(lambda: game_finished.send(sender=Game, game=game))


def _game_end(
    game: Game,
    *,
    termination: str,
    now,
    frame_type: str = "state",
    changed: tuple[str, ...] | None = None,
) -> None:
    """Finish the game; ``frame_type`` is the frame that tells sockets (``move`` after a move);
    ``changed`` as for ``_game_stop``."""
    _game_stop(game, Game.Status.FINISHED, termination=termination, now=now, changed=changed)
    # Players hear of the end first; queueing the scoring (a broker round trip) follows.
    _after_commit_game(game, frame_type)
    _queue_score(game)


def _players_seat_and_state(game: Game, seats: list[Seat], user) -> tuple[Seat, Any]:
    """(``user``'s seat, the parsed state) of a game in play; Refused if not started, over,
    or ``user`` has no seat (the seat need not be the one to move)."""
    if game.status == Game.Status.OPEN:
        raise Refused("not_started", _("The game has not started yet."))
    if game.status != Game.Status.ACTIVE:
        raise Refused("finished", _("The game is over."))
    seat = next((seat for seat in seats if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise Refused("not_seated", _("You are not playing in this game."))
    return seat, game.engine_state()


def _move_apply(
    game: Game, seats: list[Seat], seat: Seat, state, move: str, now, *, seen: bool = False
) -> Refused | None:
    """Play ``move`` for ``seat`` (already known to be the mover) unless time ran out.

    ``seen``: the mover's ``last_seen`` was set (a person's move) and is saved with the seat.
    """
    seat_fields = ["last_seen"] if seen else []
    flagged = _out_of_time(game, seats, state, now)
    if flagged is not None:
        if seat_fields:
            seat.write(seat_fields)
        _seat_forfeit(game, seats, flagged, Seat.Forfeit.TIME, now)
        return Refused("out_of_time", _("Your time ran out before the move arrived."))
    planting = _pending(state)
    try:
        after = state.apply(move, seat.index)
        # A plant step takes nothing itself: it carries its turn's take (for "=*").
        took = game.moves[-1]["took"] if planting else state.took(move)
    except EngineError as error:
        raise Refused("illegal", engine_text.error_message(error)) from None
    _move_counted(game, seat)
    game.moves = [*game.moves, {"seat": seat.index, "move": move, "took": took}]
    game.ply += 1
    game.takeback_offer = None
    game.state = after.to_json()
    # The frames built after the commit read this state: no second parse of what was just made.
    game.engine_state_is(after)
    if _pending(after):
        # The take step of a turn: same mover, the clock and deadline run on from the
        # turn's start, and a bot mover gets a task for its plant (a ply of its own).
        if game.bot_to_move:
            _queue_bot(game)
        if seat_fields:
            seat.write(seat_fields)
        game.write(MOVE_FIELDS)
        _after_commit_game(game, "move")
        return None
    if game.is_live and not seat.forfeit:
        spent = int((now - game.turn_started_at).total_seconds() * 1000)
        seat.clock_ms = seat.clock_ms - spent + game.clock_increment * 1000
        seat_fields.append("clock_ms")
    if seat_fields:
        seat.write(seat_fields)
    if after.is_over:
        _game_end(game, termination="normal", now=now, frame_type="move", changed=MOVE_FIELDS)
        return None
    _turn_begin(game, seats, after, now)
    game.write(MOVE_FIELDS)
    _after_commit_game(game, "move")
    return None


def _pending(state) -> bool:
    """True while a Topiary take waits for its plant (Wizards' Garden never has one)."""
    return state.pending_step is not None


def move_play(*, game_id: int, user, ply: int, move: str) -> Game:
    """A player's move for the position at ``ply``; Refused says why it cannot be played.

    Refusals: stale or duplicate ply, not seated, not your turn, illegal move, game
    not started or over, out of time (which also records the flag).
    """

    def play(game: Game, seats: list[Seat]) -> Refused | None:
        seat, state = _players_seat_and_state(game, seats, user)
        if type(ply) is not int or not isinstance(move, str) or not move.strip():
            raise Refused("bad_request", _("A move needs a ply (a number) and a move (notation)."))
        if len(move) > MOVE_MAX_LENGTH:
            raise Refused("bad_request", _("That move is too long to be a move."))
        if ply != game.ply:
            played = game.moves[ply] if 0 <= ply < game.ply else None
            if played is not None and played["seat"] == seat.index and played["move"] == move:
                raise Refused(
                    "duplicate",
                    _("The move %(move)s was already played at ply %(ply)s.")
                    % {"move": move, "ply": ply},
                )
            raise Refused(
                "stale",
                _("The game is at ply %(now)s, your move was for ply %(ply)s.")
                % {"now": game.ply, "ply": ply},
            )
        if seat.forfeit:
            raise Refused("forfeited", _("A bot plays your remaining turns."))
        if state.to_move != seat.index:
            raise Refused("not_your_turn", _("It is not your turn."))
        now = timezone.now()
        # The mover's sign of life is saved with their clock: one write of the seat.
        seat.last_seen = now
        return _move_apply(game, seats, seat, state, move.strip(), now, seen=True)

    return _with_game(game_id, play, held_at=ply)


def bot_move_play(*, game_id: int, ply: int) -> Game | None:
    """The bot's move for the position at ``ply``; does nothing if the game has moved on.

    The move is chosen without the lock (the strong bot thinks for a while) from
    the bot's own view, then played through the one writer, which checks the ply again.
    """
    game, seats = _game_and_seats(game_id)
    if game is None or game.status != Game.Status.ACTIVE or game.ply != ply or not game.bot_to_move:
        return None
    state = game.engine_state()
    seat = seats[state.to_move]
    level = STAND_IN_LEVEL if seat.forfeit else seat.user.bot_level
    # From the bot's own view, in a thinking process when the embedded runner offers one.
    thinking_since = time.monotonic()
    move = bot_choose(
        view=state.view(seat.index),
        level=level,
        seed=f"{game.seed}:{ply}",
        budget=settings.BOT_BUDGET,
    )
    metrics.BOT_THINK.labels(level).observe(time.monotonic() - thinking_since)

    def play(game: Game, seats: list[Seat]) -> Refused | None:
        if game.status != Game.Status.ACTIVE or game.ply != ply or not game.bot_to_move:
            return None
        now_state = game.engine_state()
        return _move_apply(game, seats, seats[now_state.to_move], now_state, move, timezone.now())

    try:
        return _with_game(game_id, play)
    except Refused as refusal:
        if refusal.code == "out_of_time":
            return None
        raise


def _game_and_seats(game_id: int) -> tuple[Game | None, list[Seat]]:
    """The game and its seats (users loaded) as committed, unlocked; (None, []) if none.

    One statement (``rows.game_with_seats``): a bot's turn reads the game here to think,
    then again under the lock to play, and two ORM queries were a tenth of its CPU."""
    found = rows.game_with_seats(game_id)
    return found if found is not None else (None, [])


def clock_check(*, game_id: int) -> Game:
    """Flag the player to move if their time (clock or days per move) has run out."""

    def check(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.ACTIVE:
            return
        now = timezone.now()
        flagged = _out_of_time(game, seats, game.engine_state(), now)
        if flagged is not None:
            _seat_forfeit(game, seats, flagged, Seat.Forfeit.TIME, now)

    return _with_game(game_id, check)


def games_sweep() -> dict:
    """The periodic job: flag overdue clocks, queue again bot turns and scorings that hang."""
    now = timezone.now()
    flagged = 0
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        clock_check(game_id=game_id)
        flagged += 1
    overdue = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE, bot_to_move=True, turn_started_at__lte=now - BOT_OVERDUE
        ).values_list("pk", "ply")
    )
    overdue = [
        (game_id, ply)
        for game_id, ply in overdue
        if cache.add(f"bot-requeued:{game_id}:{ply}", 1, timeout=BOT_REQUEUE_EVERY)
    ]
    for game_id, ply in overdue:
        _task_queue("bot_move", game_id, ply)
    unscored = list(
        Game.objects.filter(
            status=Game.Status.FINISHED, record__isnull=True, finished_at__lte=now - SCORE_OVERDUE
        ).values_list("pk", flat=True)
    )
    for game_id in unscored:
        _task_queue("game_score", game_id)
    return {
        "flag_checked": flagged,
        "bots_requeued": len(overdue),
        "scores_requeued": len(unscored),
    }


# --------------------------------------------------------------------------- giving up


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


# --------------------------------------------------------------------------- takebacks


def _takeback_seats(game: Game, seats: list[Seat], user) -> tuple[Seat, Seat]:
    """(the seat that made the last move, the other seat); Refused if no takeback may happen."""
    seat, _state = _players_seat_and_state(game, seats, user)
    if not game.allows_takebacks:
        if game.definition.casual_takebacks:
            raise Refused(
                "not_allowed",
                _("Takebacks are for casual %(game)s games only.") % {"game": game.title},
            )
        raise Refused("not_allowed", _("%(game)s has no takebacks.") % {"game": game.title})
    if not game.moves:
        raise Refused("not_allowed", _("There is no move to take back."))
    last = seats[game.moves[-1]["seat"]]
    other = next(s for s in seats if s.index != last.index)
    if seat.index not in (last.index, other.index):
        raise Refused("not_seated", _("You are not playing in this game."))
    return last, other


def _takeback_apply(game: Game, seats: list[Seat], now) -> None:
    """Undo the last move: the game returns to the position before it."""
    state = game.engine_initial()
    for entry in game.moves[:-1]:
        state = state.apply(entry["move"])
    game.moves = game.moves[:-1]
    game.ply -= 1
    game.state = state.to_json()
    game.takebacks += 1
    game.takeback_offer = None
    game.takeback_ply = game.ply
    _turn_begin(game, seats, state, now)
    game.save()
    _after_commit_game(game, "takeback")


def takeback_offer(*, game_id: int, user, ply: int) -> Game:
    """Offer to take back your last move before the opponent moves (once per turn).

    A bot opponent accepts at once; a person answers with ``takeback_answer``.
    """

    def offer(game: Game, seats: list[Seat]) -> None:
        last, other = _takeback_seats(game, seats, user)
        if last.user_id != user.pk:
            raise Refused("not_allowed", _("Only the player who just moved may take it back."))
        if ply != game.ply:
            raise Refused(
                "stale",
                _("The game is at ply %(now)s, your offer was for ply %(ply)s.")
                % {"now": game.ply, "ply": ply},
            )
        if game.takeback_ply == game.ply - 1:
            raise Refused("not_allowed", _("One takeback per turn: this move stands."))
        if game.takeback_offer == game.ply:
            raise Refused("not_allowed", _("Your takeback offer is waiting for an answer."))
        if other.user.moved_by_site:
            _takeback_apply(game, seats, timezone.now())
            return
        game.takeback_offer = game.ply
        game.save(update_fields=["takeback_offer"])
        _after_commit_game(game)

    return _with_game(game_id, offer)


def takeback_answer(*, game_id: int, user, accept: bool) -> Game:
    """Accept or decline the opponent's standing takeback offer."""

    def answer(game: Game, seats: list[Seat]) -> None:
        _last, other = _takeback_seats(game, seats, user)
        if other.user_id != user.pk or game.takeback_offer != game.ply:
            raise Refused("not_allowed", _("There is no takeback offer for you to answer."))
        if accept:
            _takeback_apply(game, seats, timezone.now())
            return
        game.takeback_offer = None
        game.save(update_fields=["takeback_offer"])
        _after_commit_game(game)

    return _with_game(game_id, answer)


# --------------------------------------------------------------------------- scoring


def game_score(*, game_id: int) -> Game:
    """Score a finished game once: the record, seat scores and ranks, ratings, then the signal."""

    def score(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.FINISHED or game.record is not None:
            return
        module = game.engine
        initial = game.engine_initial()
        record = module.make_record(
            initial,
            [turn["move"] for turn in game.turns()],
            seed=game.seed,
            names=[seat.user.username for seat in seats],
        )
        entries = {entry["seat"]: entry for entry in record["scores"]}
        ranks = game.definition.final_ranks(
            record["scores"],
            record["winners"],
            first_player=record["first_player"],
            options=game.options,
            forfeited=[bool(seat.forfeit) for seat in seats],
        )
        for seat, rank in zip(seats, ranks, strict=True):
            seat.score = entries[seat.index]
            seat.rank = rank
            seat.save(update_fields=["score", "rank"])
        game.record = record
        game.result = {
            "winners": [seat.index for seat, rank in zip(seats, ranks, strict=True) if rank == 1],
            "ranks": ranks,
            "scores": record["scores"],
        }
        game.save(update_fields=["record", "result"])
        # Apps above this one (ratings) do their part in the same transaction; what they
        # answer for the result (the rating changes) is public and shown with it.
        added = [extra for _, extra in game_scored.send(sender=Game, game=game) if extra]
        if added:
            game.result = {**game.result, **{k: v for extra in added for k, v in extra.items()}}
            game.save(update_fields=["result"])
        transaction.on_commit(lambda: game_finished.send(sender=Game, game=game))
        _after_commit_game(game)

    return _with_game(game_id, score)


# --------------------------------------------------------------------------- rematch


def _rematch_seat(game: Game, seats: list[Seat], user) -> Seat:
    """``user``'s seat at a finished game that may still be rematched; Refused says why not."""
    seat = next((seat for seat in seats if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise Refused("not_seated", _("You did not play in this game."))
    if game.status != Game.Status.FINISHED:
        raise Refused("not_finished", _("A rematch is offered once the game is over."))
    if game.in_event:
        raise Refused("not_allowed", _("Tournament games have no rematch."))
    if game.rematch_id is not None:
        raise Refused("rematch_started", _("The rematch has already started."))
    return seat


def _rematch_start(game: Game, seats: list[Seat]) -> None:
    """Every player accepted: the same players and settings, each one seat on.

    The player of seat 1 sits in seat 0, and so on round the table; the seat that moved
    first moves first again, so the turn order starts with the next player.
    """
    players = [seats[(index + 1) % len(seats)].user for index in range(len(seats))]
    rematch = game_create(
        kind=game.kind,
        players=players,
        options=game.options,
        rated=game.rated,
        clock_initial=game.clock_initial,
        clock_increment=game.clock_increment,
        correspondence_days=game.correspondence_days,
        first_player=game.engine_initial().first_player,
        created_by=game.created_by,
    )
    game.rematch = rematch
    game.save(update_fields=["rematch"])


def _rematch_accepted(game: Game, seats: list[Seat], seat: Seat) -> None:
    """Note ``seat``'s yes (house bots say yes at once); start the game when all said it."""
    bots = [other.index for other in seats if other.user and other.user.moved_by_site]
    game.rematch_offer = sorted({*game.rematch_offer, *bots, seat.index})
    if len(game.rematch_offer) == len(seats):
        _rematch_start(game, seats)
    else:
        game.save(update_fields=["rematch_offer"])
    _after_commit_game(game)


def _rematch_withdraw(game: Game) -> None:
    """The standing rematch offer lapses for every player."""
    game.rematch_offer = []
    game.save(update_fields=["rematch_offer"])
    _after_commit_game(game)


def rematch_offer(*, game_id: int, user) -> Game:
    """Offer a rematch (or accept the standing offer): it starts once every player accepts."""

    def offer(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if seat.index in game.rematch_offer:
            raise Refused("already_offered", _("You have already asked for a rematch."))
        closed = [other for other in seats if other.user and not other.user.is_active]
        if closed:
            raise Refused(
                "not_allowed",
                _("%(player)s can no longer play.") % {"player": closed[0].user.username},
            )
        _rematch_accepted(game, seats, seat)

    return _with_game(game_id, offer)


def rematch_answer(*, game_id: int, user, accept: bool) -> Game:
    """Accept or decline a rematch another player offered (a decline withdraws it for all)."""

    def answer(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if not game.rematch_offer:
            raise Refused("no_offer", _("Nobody has offered a rematch."))
        if seat.index in game.rematch_offer:
            raise Refused("already_offered", _("You have already asked for a rematch."))
        if accept:
            _rematch_accepted(game, seats, seat)
            return
        _rematch_withdraw(game)

    return _with_game(game_id, answer)


def rematch_cancel(*, game_id: int, user) -> Game:
    """Withdraw your rematch offer (or your acceptance): the offer lapses for everyone."""

    def cancel(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if seat.index not in game.rematch_offer:
            raise Refused("no_offer", _("You have not asked for a rematch."))
        _rematch_withdraw(game)

    return _with_game(game_id, cancel)


def rematch_lapse(*, game_id: int, user) -> None:
    """A player left the finished game's page: a rematch offer standing there lapses.

    Called by ``presence_record`` once the player's seat update found an offer standing
    (so no query of its own first); the offer is checked again under the game's lock.
    """
    if user is None or not user.is_authenticated:
        return

    def lapse(game: Game, seats: list[Seat]) -> None:
        if game.rematch_offer and game.rematch_id is None:
            _rematch_withdraw(game)

    _with_game(game_id, lapse)
