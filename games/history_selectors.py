"""Reads for a player's game history, their results, and finished games' records and replays.

Only finished games are ever replayed or exported: the state, the deal and the
moves of a game in progress hold hidden information, and nothing here reads
them unless the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Case,
    CharField,
    Exists,
    F,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext, pgettext_lazy

from engine.errors import EngineError, RecordError
from engine.games import game_module
from games.models import Game, Seat

#: The results a history can be filtered by, as a player says them, and as a page shows them.
RESULT_LABELS = {
    "win": pgettext_lazy("game result", "Win"),
    "loss": pgettext_lazy("game result", "Loss"),
    "draw": pgettext_lazy("game result", "Draw"),
}
RESULTS = tuple(RESULT_LABELS)


def _with_result(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """Annotate each seat with ``result``: win, draw (a shared first place), loss, or ''."""
    shared_first = Seat.objects.filter(game=OuterRef("game"), rank=1).exclude(pk=OuterRef("pk"))
    return seats.annotate(
        shared_first=Exists(shared_first),
        result=Case(
            When(game__status=Game.Status.ABORTED, then=Value("")),
            When(rank=1, shared_first=True, then=Value("draw")),
            When(rank=1, then=Value("win")),
            When(rank__gt=1, then=Value("loss")),
            default=Value(""),
            output_field=CharField(),
        ),
    )


def game_history_for(
    *,
    user,
    kind: str | None = None,
    result: str | None = None,
    rated: bool | None = None,
    opponent: str | None = None,
) -> QuerySet[Seat]:
    """``user``'s seats in finished and aborted games, newest first, with the game's seats.

    Each seat carries ``result`` (see ``_with_result``) and ``rating_change``
    (after - before of the user's rating in that game, None when unrated).
    Filters: game kind, result (win/loss/draw), rated or casual, and an
    opponent's username (any other seat, case-insensitive).
    """
    seats = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED]
    )
    if kind:
        seats = seats.filter(game__kind=kind)
    if rated is not None:
        seats = seats.filter(game__rated=rated)
    if opponent:
        others = Seat.objects.filter(game=OuterRef("game"), user__username__iexact=opponent)
        seats = seats.filter(Exists(others.exclude(user=user)))
    # Through the ratings' relation to the game: games does not import the app above it.
    change = (
        Game.objects.filter(pk=OuterRef("game"), rating_changes__user=user)
        .annotate(delta=F("rating_changes__after") - F("rating_changes__before"))
        .values("delta")[:1]
    )
    seats = _with_result(seats).annotate(
        rating_change=Subquery(change),
        ended=Coalesce("game__finished_at", "game__created_at"),
    )
    if result:
        seats = seats.filter(result=result)
    return (
        seats.select_related("game")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("-ended", "-game_id")
    )


@dataclass(frozen=True)
class GameStats:
    """How a player has done at one game: finished games, wins, draws and losses."""

    played: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game (0..1), None before the first one."""
        return self.wins / self.played if self.played else None


def game_stats_for(*, user, kind: str) -> GameStats:
    """``user``'s finished games of ``kind`` (rated and casual) by result."""
    results = list(
        _with_result(
            Seat.objects.filter(user=user, game__kind=kind, game__status=Game.Status.FINISHED)
        ).values_list("result", flat=True)
    )
    return GameStats(
        played=len(results),
        wins=results.count("win"),
        draws=results.count("draw"),
        losses=results.count("loss"),
    )


def finished_game(game_id: int) -> Game | None:
    """The game if it is finished (and so may be shown in full to anyone), else None."""
    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()


def game_record(game: Game) -> dict:
    """The NOTATION.md record of a finished game: the one stored when it was scored, or else
    rebuilt from its deal and moves."""
    if game.status != Game.Status.FINISHED:
        raise ValueError(f"game {game.pk} is not finished: its record is hidden")
    if game.record:
        return game.record
    module = game_module(game.kind)
    names = [seat.user.username if seat.user else f"seat {seat.index}" for seat in game.seats.all()]
    return module.make_record(
        module.state_from_json(game.initial),
        [turn["move"] for turn in game.turns()],
        seed=game.seed,
        names=names,
    )


def replay_frames(record: dict) -> dict:
    """Everything a replay page shows, built by replaying ``record`` through the engine.

    One frame for the deal and one per step after it (the full position, the
    score as it stands, the move that led there and, in Topiary, every
    visitor's sight line), the seat names and the final score. A Topiary turn
    with a take is two frames, as it was played at the table: the take (the
    tile in the taker's hand, the gap in the garden) and then the plant; its
    ``step`` says which (``"take"``, ``"plant"``, or null for a whole move).
    Raises the engine's ``RecordError`` (or ``NotationError`` for an unknown
    game) when the record does not replay.
    """
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise RecordError(code="record_without_game")
    module = game_module(record["game"])
    states = module.replay(record)
    frames = [_replay_frame(module, 0, None, None, None, states[0])]
    for turn, state in enumerate(states[1:]):
        entry = record["moves"][turn]
        before = states[turn]
        move = entry if isinstance(entry, str) else entry["move"]
        took = None if isinstance(entry, str) else entry.get("took")
        if took and "=" in move:
            take_step, plant_step = move.split("=", 1)
            try:
                pending = before.apply(take_step)
            except EngineError as error:
                raise RecordError.at_ply(error, turn + 1) from None
            frames.append(
                _replay_frame(
                    module, len(frames), _took_text(take_step, took), "take", before, pending
                )
            )
            frames.append(
                _replay_frame(
                    module,
                    len(frames),
                    f"={took if plant_step == '*' else plant_step}",
                    "plant",
                    before,
                    state,
                )
            )
        else:
            frames.append(
                _replay_frame(module, len(frames), _move_text(entry), None, before, state)
            )
    return {
        "game": module.NAME,
        "players": record["players"],
        "frames": frames,
        "final": frames[-1]["score"],
        # Why the game ended, where the game says (Wizards' Garden: the basket is empty...).
        "end_reason": module.GAME.end_reason(states[-1]),
    }


def _replay_frame(module, ply: int, move: str | None, step: str | None, before, state) -> dict:
    frame = {
        "ply": ply,
        "move": move,
        "step": step,
        "mover": None if before is None else before.to_move,
        "position": state.to_json(),
        "score": state.score(),
    }
    if module.GAME.sight_lines:
        frame["visitors"] = state.sight_lines()
    return frame


def _move_text(entry) -> str:
    """A record's move as it reads in the move list (a take shows the tile taken)."""
    if isinstance(entry, str):
        return entry
    took = entry.get("took")
    return _took_text(entry["move"], took) if took else entry["move"]


def _took_text(move: str, tile: str) -> str:
    """A move with the tile its player took: ``c5:S c4=R3 (took E4)``."""
    return gettext("%(move)s (took %(tile)s)") % {"move": move, "tile": tile}
