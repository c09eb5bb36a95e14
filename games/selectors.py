"""Reads for games: what each viewer may see of a game, and the lobby's open tables.

Everything a client receives about a running game is built here from an engine
view (``View.to_json``, ``View.legal_steps``, ``View.public_score``) and the
engine's ``move_seen_by`` for the viewer's seat, never from the full state or the
stored moves as played; the full state is shown only once the game is finished.
"""

from __future__ import annotations

from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from games import live
from games.models import Game, Seat

#: A page that has sent no heartbeat for this long is shown as offline.
ONLINE_WITHIN_S = 35


def game_with_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """A game and its seats in turn order; ``Game.DoesNotExist`` if there is none."""
    game = Game.objects.get(pk=game_id)
    return game, list(game.seats.select_related("user").order_by("index"))


def seat_of(seats: list[Seat], user) -> Seat | None:
    """The seat ``user`` occupies, if any."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


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


def _move_seen(game: Game, entry: dict, viewer: int | None, over: bool) -> dict:
    """One played ply as ``viewer`` may know it: the engine's form of it for that seat."""
    mine = viewer is not None and viewer == entry["seat"]
    move = game.engine.move_seen_by(
        entry["move"], mover=entry["seat"], viewer=viewer, took=entry.get("took"), over=over
    )
    return {
        "seat": entry["seat"],
        "move": move,
        "took": entry.get("took") if mine or over else None,
    }


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
    }


def game_payload(game: Game, seats: list[Seat], viewer: int | None, kind: str = "state") -> dict:
    """One frame for one viewer (a seat index, or None for a spectator), ``ply`` included.

    ``kind`` is ``state`` (a snapshot) or ``move`` (a snapshot that follows one more ply).
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
            final = _final(game, state)
    finished = over and game.result is not None
    playing_seat = viewer if viewer is not None and not seats[viewer].forfeit else None
    frame = {
        "type": kind,
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
        "server_time": _epoch_ms(now),
        "termination": game.termination or None,
        "result": game.result if finished else None,
        "final": final,
    }
    if kind == "move" and game.moves:
        frame["move"] = frame["moves"][-1]
    return frame


def game_frames(game_id: int, kind: str = "state") -> list[tuple[str, dict]]:
    """(group, frame) for every seat's group and the spectators' group of a game."""
    try:
        game, seats = game_with_seats(game_id)
    except Game.DoesNotExist:
        return []
    return game_frames_of(game, seats, kind)


def game_frames_of(game: Game, seats: list[Seat], kind: str = "state") -> list[tuple[str, dict]]:
    """(group, frame) for every group of ``game`` as it stands in memory (just committed)."""
    viewers = [*range(len(seats)), None]
    groups = live.everyone_groups(game.pk, len(seats))
    return [
        (group, game_payload(game, seats, viewer, kind))
        for group, viewer in zip(groups, viewers, strict=True)
    ]


def game_state_for(game_id: int, user) -> dict:
    """The frame a user may see of a game now (their seat's view, or the public one)."""
    game, seats = game_with_seats(game_id)
    seat = seat_of(seats, user)
    return game_payload(game, seats, seat.index if seat else None)


def _table_json(game: Game, user) -> dict:
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
            }
            for seat in seats
        ],
        "time_control": game.time_control,
        "rated": game.rated,
        "created_by": game.created_by.username if game.created_by else None,
        "invited": game.invited.username if game.invited else None,
        "yours": any(seat.user_id == getattr(user, "pk", None) for seat in seats),
        "invited_you": game.invited_id is not None and game.invited_id == getattr(user, "pk", None),
        "url": reverse("games:game", args=[game.pk]),
    }


def tables_open(user) -> list[dict]:
    """Tables waiting for players that ``user`` may see: open ones and their own challenges."""
    visible = Q(invited__isnull=True)
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
    return [_table_json(game, user) for game in games]


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
