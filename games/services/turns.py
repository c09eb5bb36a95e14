"""Turns and clocks: moves by players and bots, flags, forfeits and the end of a game."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.errors import EngineError
from games import engine_text, rows, user_events
from games.models import Game, Seat
from games.services.writer import (
    Refused,
    _after_commit_game,
    _move_counted,
    _queue_bot,
    _queue_score,
    _task_queue,
    _with_game,
)
from games.signals import game_finished
from games.thinking import bot_choose
from kit import metrics

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
#: A day of a days-per-move clock, in the milliseconds of `Game.paused_ms`.
DAY_MS = 24 * 3600 * 1000
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
    "paused_ms",
)


def is_away(seat: Seat, now) -> bool:
    """True while the seat's player is on vacation (``Seat.away_until``, correspondence only)."""
    return seat.away_until is not None and seat.away_until > now


def _turn_begin(game: Game, seats: list[Seat], state, now) -> None:
    """Hand the turn to the seat to move: its deadline, and a bot task if a bot plays it.

    A correspondence player on vacation gets their days with the clock stopped: no
    deadline, the whole turn kept in ``paused_ms`` until they are back
    (``games.services.vacations``)."""
    game.turn_started_at = now
    mover = seats[state.to_move]
    game.bot_to_move = mover.played_by_bot
    game.paused_ms = None
    if mover.forfeit:
        game.deadline = None
    elif game.is_live:
        game.deadline = now + timedelta(milliseconds=mover.clock_ms)
    elif mover.user.moved_by_site:
        game.deadline = None
    elif is_away(mover, now):
        game.deadline = None
        game.paused_ms = game.correspondence_days * DAY_MS
    else:
        game.deadline = now + timedelta(days=game.correspondence_days)
    if game.bot_to_move:
        _queue_bot(game)
    else:
        user_events.turn_came(game, mover)


def _out_of_time(game: Game, seats: list[Seat], state, now) -> Seat | None:
    """The seat to move if its time has run out (clock or days per move), else None."""
    mover = seats[state.to_move]
    if mover.forfeit or game.deadline is None or now < game.deadline or is_away(mover, now):
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
    entry = {"seat": seat.index, "move": move, "took": took}
    # What the move did beyond its notation (a harvest, a set-up seed), public to every
    # viewer: worked out once here, not once per viewer's frame.
    facts = game.definition.facts_of(state, move)
    if facts is not None:
        entry["facts"] = facts
    game.moves = [*game.moves, entry]
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
