"""Reads for the daily puzzle: positions on the way, what a user has done, archive, boards."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import F, Window
from django.db.models.functions import Rank
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import puzzles as engine_puzzles
from engine import topiary
from engine.errors import EngineError
from games import engine_text
from puzzles.models import DailyPuzzle, PuzzleAttempt, PuzzleStreak
from puzzles.services import SubmissionRefused, checked_moves

#: The first daily puzzle of the site; the archive starts here.
FIRST_PUZZLE_DATE = datetime.date(2026, 11, 1)
LEADERBOARD_SIZE = 50


def puzzle_date_playable(date: datetime.date, *, today: datetime.date) -> bool:
    """Whether ``date``'s puzzle may be played: released (not in the future) and not before
    the first one."""
    return FIRST_PUZZLE_DATE <= date <= today


def solver_position(position: dict, seat: int) -> dict:
    """The puzzle position as the solver sees it: everything on the table.

    Face-down identities stay (the puzzle reveals them); other seats' hands and
    the box play no part in the solver's score and are left out.
    """
    hands = [hand if i == seat else ["?"] * len(hand) for i, hand in enumerate(position["hands"])]
    return {key: value for key, value in position.items() if key != "box"} | {"hands": hands}


@dataclass(frozen=True)
class Progress:
    """The position after the solver's moves so far, and the solver's legal moves there."""

    position: dict
    legal_moves: list[str]
    left: int
    # What each visitor (and, while moves are left, each free position) sees, as the
    # engine counts it: the board draws lines and points from this, never from its own rule.
    sight_lines: list[dict]
    # The opponent's replies between the solver's moves, in order (Wizards' Garden: the
    # engine's best answer to each planting; none in Topiary, where nobody else moves).
    replies: list[str] = field(default_factory=list)


def puzzle_progress(puzzle: DailyPuzzle, submission) -> Progress:
    """Replay a partial line through the engine (SubmissionRefused if it is not legal)."""
    moves = checked_moves(puzzle, submission, complete=False)
    try:
        state = topiary.state_from_json(puzzle.position)
        for move in moves:
            state = state.apply(move, seat=puzzle.seat)
    except EngineError as error:
        raise SubmissionRefused(engine_text.error_message(error)) from error
    left = puzzle.k - len(moves)
    return Progress(
        position=solver_position(state.to_json(), puzzle.seat),
        legal_moves=state.legal_moves() if left else [],
        left=left,
        sight_lines=state.sight_lines(free=bool(left)),
    )


def board_data(puzzle, start: Progress, *, revealed: bool) -> dict:
    """What a puzzle page's board starts from, for a daily or a training puzzle: the
    solver's seat, K and optimum, the position before any move (``start``), and the answer
    only once ``revealed``."""
    return {
        "seat": puzzle.seat,
        "k": puzzle.k,
        "optimum": puzzle.optimum,
        "position": start.position,
        "legal_moves": start.legal_moves,
        "sight_lines": start.sight_lines,
        "type_names": topiary.TYPE_NAMES,
        "line": puzzle.line if revealed else None,
    }


def attempts_of(*, puzzle: DailyPuzzle, user) -> list[PuzzleAttempt]:
    """A signed-in user's attempts at a puzzle, oldest first ([] for anonymous users)."""
    if not user.is_authenticated:
        return []
    return list(PuzzleAttempt.objects.filter(puzzle=puzzle, user=user))


def line_revealed(attempts: list[PuzzleAttempt]) -> bool:
    """The optimal line may be shown once the user has solved the puzzle or given up."""
    return any(a.solved or a.gave_up for a in attempts)


def streak_of(user, *, today: datetime.date) -> tuple[int, int]:
    """A user's (current, best) solve streak."""
    streak = PuzzleStreak.objects.filter(user=user).first()
    if streak is None:
        return 0, 0
    return streak.current_on(today), streak.best


@dataclass(frozen=True)
class ArchiveEntry:
    """One date of the archive: its puzzle if already made, and the viewer's best result."""

    date: datetime.date
    puzzle: DailyPuzzle | None
    result: str

    @property
    def k(self) -> int:
        """Visitors to place: known from the weekday before the puzzle is made."""
        return engine_puzzles.K_BY_WEEKDAY[self.date.weekday()]


def archive_dates(*, today: datetime.date) -> list[datetime.date]:
    """Every past puzzle date, newest first (today's puzzle is on /puzzles/, not here)."""
    days = (today - FIRST_PUZZLE_DATE).days
    return [today - datetime.timedelta(days=n) for n in range(1, days + 1)]


def archive_entries(dates: list[datetime.date], *, user) -> list[ArchiveEntry]:
    """The archive rows for some dates; puzzles not made yet are made when first opened."""
    puzzles = {p.date: p for p in DailyPuzzle.objects.filter(date__in=dates)}
    tried: dict[datetime.date, list[PuzzleAttempt]] = {}
    if user.is_authenticated:
        attempts = PuzzleAttempt.objects.filter(user=user, puzzle__date__in=dates)
        for attempt in attempts.select_related("puzzle"):
            tried.setdefault(attempt.puzzle.date, []).append(attempt)
    return [
        ArchiveEntry(date=d, puzzle=puzzles.get(d), result=best_result(tried.get(d, [])))
        for d in dates
    ]


def best_result(attempts: list[PuzzleAttempt]) -> str:
    """A user's best result at one puzzle in a few words ("" if never tried)."""
    if any(a.solved for a in attempts):
        return _("Solved")
    scores = [a.score for a in attempts if a.score is not None]
    if scores:
        return f"{max(scores)} / {attempts[0].puzzle.optimum}"
    return _("Gave up") if attempts else ""


def _alive_streaks(today: datetime.date):
    return PuzzleStreak.objects.filter(
        last_solved__gte=today - datetime.timedelta(days=1),
        current__gt=0,
        user__is_bot=False,
        user__is_active=True,
    )


def streak_leaders(*, today: datetime.date) -> list[PuzzleStreak]:
    """Longest streaks still alive today (solved today or yesterday), longest first, each with
    its ``rank`` (shared by equal streaks)."""
    return list(
        _alive_streaks(today)
        .select_related("user")
        .annotate(rank=Window(Rank(), order_by=F("current").desc()))
        .order_by("-current", "user__username")[:LEADERBOARD_SIZE]
    )


def streak_rank(*, user, today: datetime.date) -> int | None:
    """Where a user's current streak stands on the streak board, or None without one."""
    current, _best = streak_of(user, today=today)
    if not current:
        return None
    return _alive_streaks(today).filter(current__gt=current).count() + 1


def daily_puzzle_of(date: datetime.date) -> DailyPuzzle | None:
    """The stored puzzle of a date, or None if nobody has made it yet (never makes it)."""
    return DailyPuzzle.objects.filter(date=date).first()


def daily_puzzle_ready() -> dict[str, bool]:
    """Whether today's and tomorrow's puzzles exist (``/status.json``; never what they are)."""
    today = timezone.localdate()
    return {
        "today": daily_puzzle_of(today) is not None,
        "tomorrow": daily_puzzle_of(today + datetime.timedelta(days=1)) is not None,
    }


def solved_count(user) -> int:
    """How many different daily puzzles a user has solved."""
    return PuzzleAttempt.objects.filter(user=user, solved=True).values("puzzle").distinct().count()


def training_puzzle_source(puzzle) -> dict | None:
    """Where a game-mined training puzzle came from, for "from alice v bob, 2026-11-28":
    the game's id, its players' names in seat order and its finish date; None for a
    self-play puzzle or when the game is gone."""
    game = puzzle.source_game
    if game is None:
        return None
    names = [
        seat.user.username if seat.user else "?"
        for seat in game.seats.select_related("user").order_by("index")
    ]
    date = (game.finished_at or game.created_at).date()
    return {
        "game_id": game.pk,
        "players": names,
        "date": date,
        "text": _("from %(players)s, %(date)s")
        % {"players": " v ".join(names), "date": date.isoformat()},
    }
