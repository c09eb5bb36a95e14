"""Frames: what each viewer of a game is sent, built in one place (docs/PROTOCOL.md).

Everything a client receives about a running game is built here from an engine
view (``View.to_json``, ``View.legal_steps``, ``View.public_score``) and the
engine's ``move_seen_by`` for the viewer's seat, never from the full state or the
stored moves as played; the full state is shown only once the game is finished.

``game_payload(game, seats, viewer)`` is one viewer's frame (the page, the HTTP
state endpoint, a socket's snapshot, the API); ``game_frames(game, seats)`` is how to
build every group's frame of a change, from what the writer committed
(``games.services``), handed to ``games.live``, which builds those of groups with
sockets in them. ``presence_frame`` is
the small frame of a player's sign of life.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.utils import timezone

from games import live
from games.models import Game, Seat

#: A page that has sent no heartbeat for this long is shown as offline.
ONLINE_WITHIN_S = 35


def _epoch_ms(moment) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def _clocks(game: Game, seats: list[Seat], to_move: int | None, now) -> dict | None:
    """Remaining milliseconds per seat as of ``now`` and whose clock is running."""
    if not game.is_live:
        return None
    running = to_move if game.status == Game.Status.ACTIVE else None
    remaining = []
    for seat in seats:
        ms = seat.clock_ms
        if ms is not None and seat.index == running and not seat.forfeit:
            ms = max(0, ms - int((now - game.turn_started_at).total_seconds() * 1000))
        remaining.append(ms)
    if running is not None and seats[running].forfeit:
        running = None
    return {"ms": remaining, "running": running}


def _seat_json(game: Game, seat: Seat, now, reveal_results: bool) -> dict:
    user = seat.user
    since = seat.gone_since(game) if game.status == Game.Status.ACTIVE else None
    entry = {
        "index": seat.index,
        "username": user.username if user else None,
        "bot": bool(user and user.is_bot),
        "bot_level": user.bot_level if user and user.is_bot else None,
        "forfeit": seat.forfeit or None,
        "online": bool(
            user
            and (
                user.moved_by_site
                or (seat.last_seen and (now - seat.last_seen).total_seconds() < ONLINE_WITHIN_S)
            )
        ),
        "away_ms": None if since is None else int((now - since).total_seconds() * 1000),
        "vacation_until": _epoch_ms(seat.away_until)
        if game.status == Game.Status.ACTIVE and seat.away_until and seat.away_until > now
        else None,
    }
    if reveal_results:
        entry["score"] = seat.score
        entry["rank"] = seat.rank
    return entry


def _takeback_json(game: Game, viewer: int | None) -> dict | None:
    """Takebacks open to the viewer: may they offer one, is an offer standing, who made it."""
    if not game.allows_takebacks or game.status != Game.Status.ACTIVE or not game.moves:
        return None
    last = game.moves[-1]["seat"]
    offered = game.takeback_offer == game.ply
    return {
        "offered_by": last if offered else None,
        "can_offer": viewer == last and not offered and game.takeback_ply != game.ply - 1,
        "can_answer": offered and viewer is not None and viewer != last,
    }


def _rematch_json(game: Game, viewer: int | None) -> dict | None:
    """A finished game's rematch: who asked or accepted, the new game, what the viewer may do."""
    if game.status != Game.Status.FINISHED or game.in_event:
        return None
    offered = list(game.rematch_offer)
    open_to_viewer = viewer is not None and game.rematch_id is None
    return {
        "offered_by": offered,
        "game": game.rematch_id,
        "can_offer": open_to_viewer and not offered,
        "can_answer": open_to_viewer and bool(offered) and viewer not in offered,
        "can_cancel": open_to_viewer and viewer in offered,
    }


def _move_seen(game: Game, entry: dict, viewer: int | None, over: bool) -> dict:
    """One played ply as ``viewer`` may know it: the engine's form of it for that seat."""
    mine = viewer is not None and viewer == entry["seat"]
    move = game.engine.move_seen_by(
        entry["move"], mover=entry["seat"], viewer=viewer, took=entry.get("took"), over=over
    )
    seen = {
        "seat": entry["seat"],
        "move": move,
        "took": entry.get("took") if mine or over else None,
    }
    # The game's facts of a move are public by its descriptor's word (``move_facts``).
    facts = entry.get("facts")
    if facts is not None:
        seen["facts"] = facts
    return seen


def _final(game: Game, state) -> dict:
    """What the table shows when the scores are counted: the whole position and its count.

    A game that ended between the two steps of a take (on the clock, say) is shown as
    its record ends: before that unfinished turn.
    """
    if state.pending_step is not None:
        state = game.turns_state()
    score = state.score()
    sighted = hasattr(state, "sight_lines")
    return {
        "position": state.to_json(),
        "sight_lines": state.sight_lines() if sighted else [],
        "scoring_hand_tiles": state.scoring_hand_tiles() if sighted else [],
        "scores": score["scores"],
        "winners": score.get("winners", []),
        "moves": game.turns(),
        "end_reason": game.definition.end_reason(state),
    }


def game_payload(
    game: Game,
    seats: list[Seat],
    viewer: int | None,
    frame_type: str = "state",
    *,
    _final_view=None,
) -> dict:
    """One frame for one viewer (a seat index, or None for a spectator), ``ply`` included.

    ``frame_type`` is ``state`` (a snapshot) or ``move`` (a snapshot that follows one more ply).
    The state is the game's parsed one (``Game.engine_state`` parses each stored state once),
    so the frames of every viewer of one change share one parse.
    Every move in it is the viewer's form of it (``move_seen_by``); only once the game is
    finished does ``final`` show the full state.
    """
    now = timezone.now()
    position = legal_moves = score = pending = None
    legal_steps: list[str] = []
    sight_lines: list[dict] = []
    to_move = final = None
    over = game.status == Game.Status.FINISHED
    if game.state is not None:
        state = game.engine_state()
        view = state.spectator_view() if viewer is None else state.view(viewer)
        position = view.to_json()
        score = view.public_score()
        pending = position.get("pending")
        if pending is not None:
            pending = {"seat": view.to_move, **pending}
        playing = game.status == Game.Status.ACTIVE
        to_move = view.to_move if playing else None
        own_turn = playing and viewer is not None and not seats[viewer].forfeit
        legal_moves = view.legal_moves() if own_turn else []
        legal_steps = view.legal_steps() if own_turn else []
        if hasattr(view, "sight_lines"):
            # When the viewer is to place a visitor, the free positions too: what a visitor
            # placed there would see.
            placing = own_turn and view.to_move == viewer and view.phase == "play"
            sight_lines = view.sight_lines(free=placing and view.pending_step is None)
        if over:
            final = _final_view if _final_view is not None else _final(game, state)
    finished = over and game.result is not None
    playing_seat = viewer if viewer is not None and not seats[viewer].forfeit else None
    frame = {
        "type": frame_type,
        "game": game.pk,
        "ply": game.ply,
        "kind": game.kind,
        "status": game.status,
        "rated": game.rated,
        "time_control": game.time_control,
        "you": viewer,
        "seats": [_seat_json(game, seat, now, finished) for seat in seats],
        "to_move": to_move,
        "position": position,
        "legal_steps": legal_steps,
        "legal_moves": legal_moves,
        "pending": pending,
        "score": score,
        "sight_lines": sight_lines,
        "moves": [_move_seen(game, entry, viewer, over) for entry in game.moves],
        "takebacks": game.takebacks,
        "takeback": _takeback_json(game, viewer),
        "can_abort": playing_seat is not None
        and game.status == Game.Status.ACTIVE
        and all(entry["seat"] != playing_seat for entry in game.moves),
        "clocks": _clocks(game, seats, to_move, now),
        "deadline": _epoch_ms(game.deadline),
        "paused_ms": game.paused_ms if game.status == Game.Status.ACTIVE else None,
        "server_time": _epoch_ms(now),
        "termination": game.termination or None,
        "result": game.result if finished else None,
        "final": final,
        "rematch": _rematch_json(game, viewer),
    }
    if frame_type == "move" and game.moves:
        frame["move"] = frame["moves"][-1]
    return frame


def game_frames(
    game: Game, seats: list[Seat], frame_type: str = "state"
) -> list[tuple[str, Callable[[], dict]]]:
    """(group, how to build its frame) for every seat's group and the spectators' group.

    ``game`` and ``seats`` are as the writer just committed them: nothing is read again,
    the state is parsed once for all viewers, and a finished game's full count once. A
    frame is built only when asked for: the push builds only those of groups someone is
    in (a bot's seat, or a game nobody watches, has none), which is most of a move's
    frames in a game against a bot.
    """
    final = None
    if game.status == Game.Status.FINISHED and game.state is not None:
        final = _final(game, game.engine_state())
    viewers = [*range(len(seats)), None]
    groups = live.everyone_groups(game.pk, len(seats))
    return [
        (group, functools.partial(game_payload, game, seats, viewer, frame_type, _final_view=final))
        for group, viewer in zip(groups, viewers, strict=True)
    ]


def presence_frame(*, seat: int, online: bool, ply: int, takebacks: int) -> dict:
    """A player's page came or went (``online``); ``ply`` and ``takebacks`` date the frame."""
    return {"type": "presence", "ply": ply, "takebacks": takebacks, "seat": seat, "online": online}
