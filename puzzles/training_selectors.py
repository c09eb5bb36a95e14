"""Reads for puzzle training: the next puzzle near a rating, runs, boards and the dashboard.

Choosing the next puzzle walks the ``(kind, rating)`` index outwards from the target rating
(one range scan up, one down, per game), skipping puzzles the user has answered through
the ``(user, puzzle)`` index of attempts, and picks at random among the few nearest: an
index walk, never a scan of the pool (docs/BENCHMARKS.md, "Next training puzzle").
"""

from __future__ import annotations

import datetime
import json
import secrets
from dataclasses import dataclass

from django.db import connection
from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _

from puzzles.models import TrainingAttempt, TrainingPuzzle, TrainingRun
from puzzles.themes import THEMES, theme_name, theme_slugs

#: The rating offset of each difficulty a player may pick.
DIFFICULTY_OFFSETS = {"easier": -300, "normal": 0, "harder": 300}
#: The next puzzle is one of this many unseen puzzles nearest the target rating.
NEAREST = 6
#: Runs: the first puzzle is this far below the player's rating, each solve this much harder.
RUN_START_OFFSET = {"streak": -400, "storm": -500}
RUN_STEP = {"streak": 60, "storm": 40}
LEADERBOARD_SIZE = 20
#: The dashboard ranks themes with at least this many rated attempts.
DASHBOARD_MIN_ATTEMPTS = 3


def theme_choices(kinds) -> list[tuple[str, str]]:
    """(slug, name) of every theme of ``kinds``, for a theme picker."""
    return [(slug, theme_name(slug)) for kind in kinds for slug in theme_slugs(kind)]


def difficulty_target(rating: float, difficulty: str) -> float:
    """The rating to serve at for a picked difficulty (unknown names count as normal)."""
    return rating + DIFFICULTY_OFFSETS.get(difficulty, 0)


def run_target(rating: float, *, solved: int, mode: str) -> float:
    """The rating of a run's next puzzle after ``solved`` solves: rising from below the player."""
    return rating + RUN_START_OFFSET[mode] + RUN_STEP[mode] * solved


def _unseen(user, kind: str, theme: str | None):
    seen = TrainingAttempt.objects.filter(user=user, puzzle=OuterRef("pk"))
    pool = TrainingPuzzle.objects.filter(kind=kind).filter(~Exists(seen))
    if theme:
        if connection.features.supports_json_field_contains:
            pool = pool.filter(themes__contains=[theme])
        else:
            # SQLite (the embedded default) has no JSON containment: the stored list's text
            # holds the slug in quotes, and no slug is another's quoted substring.
            pool = pool.filter(themes__icontains=json.dumps(theme))
    return pool


def training_puzzle_next(
    *, user, target: float, kinds, theme: str | None = None
) -> TrainingPuzzle | None:
    """An unseen puzzle of one of ``kinds`` (optionally of one theme) near ``target``."""
    near: list[tuple[int, float]] = []
    for kind in kinds:
        # Only (id, rating) leave the walk: a position's JSON is read for the chosen one alone.
        pool = _unseen(user, kind, theme).values_list("pk", "rating")
        up = pool.filter(rating__gte=target).order_by("rating")[:NEAREST]
        down = pool.filter(rating__lt=target).order_by("-rating")[:NEAREST]
        if connection.features.supports_slicing_ordering_in_compound:
            near += up.union(down, all=True)
        else:  # SQLite: no LIMIT inside a UNION, so the two walks are two queries
            near += [*up, *down]
    if not near:
        return None
    near.sort(key=lambda row: abs(row[1] - target))
    chosen, _rating = secrets.choice(near[:NEAREST])
    return TrainingPuzzle.objects.get(pk=chosen)


@dataclass(frozen=True)
class StreamChoice:
    """What the player asked the stream for, checked."""

    difficulty: str = "normal"
    theme: str | None = None
    kinds: tuple[str, ...] = ()


def stream_choice(*, difficulty, theme, kind, kinds) -> StreamChoice:
    """Check the stream's options (``kinds``: the games the site can judge); ValueError says
    what is wrong, as a sentence."""
    difficulty = difficulty or "normal"
    if difficulty not in DIFFICULTY_OFFSETS:
        raise ValueError(
            _("Difficulty: expected one of %(names)s.") % {"names": ", ".join(DIFFICULTY_OFFSETS)}
        )
    if theme and theme not in THEMES:
        raise ValueError(_("Theme: %(theme)s is not a theme.") % {"theme": repr(theme)})
    if kind and kind not in kinds:
        raise ValueError(_("Game: there are no puzzles of %(kind)s.") % {"kind": repr(kind)})
    return StreamChoice(difficulty, theme or None, (kind,) if kind else tuple(kinds))


def stream_next(*, user, rating: float, choice: StreamChoice) -> tuple[TrainingPuzzle | None, bool]:
    """The stream's next puzzle for ``user`` and whether it is one of their own endings
    (offered first while any is left unseen)."""
    own = own_ending_next(user=user, kinds=choice.kinds, theme=choice.theme)
    if own is not None:
        return own, True
    target = difficulty_target(rating, choice.difficulty)
    found = training_puzzle_next(user=user, target=target, kinds=choice.kinds, theme=choice.theme)
    return found, False


def own_ending_next(*, user, kinds, theme: str | None = None) -> TrainingPuzzle | None:
    """The newest unseen puzzle mined from the user's own games ("your own ending")."""
    for kind in kinds:
        found = _unseen(user, kind, theme).filter(source_user=user).order_by("-created_at").first()
        if found is not None:
            return found
    return None


def own_endings_waiting(*, user, kinds) -> int:
    """How many unseen puzzles from the user's own games wait for them."""
    return sum(_unseen(user, kind, None).filter(source_user=user).count() for kind in kinds)


def source_text(puzzle: TrainingPuzzle) -> str:
    """Where a puzzle comes from, for people: "From alice v bob, 2026-11-28" or self-play."""
    game = puzzle.source_game
    if game is None:
        return _("From house-bot self-play")
    names = " v ".join(seat.user.username if seat.user else "?" for seat in game.seats.all())
    when = (game.finished_at or game.created_at).date().isoformat()
    return _("From %(players)s, %(date)s") % {"players": names, "date": when}


def attempts_of(*, puzzle: TrainingPuzzle, user) -> list[TrainingAttempt]:
    """A signed-in user's attempts at a puzzle, oldest first ([] for anonymous users)."""
    if not user.is_authenticated:
        return []
    return list(TrainingAttempt.objects.filter(puzzle=puzzle, user=user))


# --------------------------------------------------------------------------- runs


def open_run(*, user, mode: str) -> TrainingRun | None:
    """The user's run of ``mode`` still going, if any."""
    return TrainingRun.objects.filter(user=user, mode=mode, ended_at__isnull=True).first()


def best_score(*, user, mode: str) -> int:
    """The user's best run of ``mode`` (0 if none)."""
    best = TrainingRun.objects.filter(user=user, mode=mode).aggregate(best=Max("score"))["best"]
    return best or 0


@dataclass(frozen=True)
class BoardRow:
    rank: int
    username: str
    score: int


def run_leaders(*, mode: str, since: datetime.datetime | None = None) -> list[BoardRow]:
    """Each player's best run of ``mode`` (since ``since``: the day's board), best first."""
    runs = TrainingRun.objects.filter(
        mode=mode, score__gt=0, user__is_active=True, user__is_bot=False
    )
    if since is not None:
        runs = runs.filter(started_at__gte=since)
    rows = (
        runs.values("user__username")
        .annotate(best=Max("score"))
        .order_by("-best", "user__username")[:LEADERBOARD_SIZE]
    )
    board: list[BoardRow] = []
    for row in rows:
        rank = board[-1].rank if board and board[-1].score == row["best"] else len(board) + 1
        board.append(BoardRow(rank=rank, username=row["user__username"], score=row["best"]))
    return board


# --------------------------------------------------------------------------- dashboard


@dataclass(frozen=True)
class ThemeStats:
    """A user's rated attempts of one theme."""

    theme: str
    attempts: int
    first_try: int
    average_rating: float

    @property
    def name(self) -> str:
        """The theme's name for people."""
        return theme_name(self.theme)

    @property
    def first_try_rate(self) -> float:
        return self.first_try / self.attempts

    @property
    def performance(self) -> int:
        """lichess's figure: average puzzle rating - 500 + 1000 x first-try rate."""
        return round(self.average_rating - 500 + 1000 * self.first_try_rate)


@dataclass(frozen=True)
class Dashboard:
    overall: ThemeStats | None
    themes: list[ThemeStats]
    strongest: list[ThemeStats]
    weakest: list[ThemeStats]
    # Puzzles failed on the first try and not solved since, newest first.
    to_replay: list[TrainingPuzzle]


def dashboard(*, user, replay_limit: int = 20) -> Dashboard:
    """Per theme: first-try rate and performance; strongest and weakest; failed puzzles."""
    rated = TrainingAttempt.objects.filter(user=user, rated=True).values_list(
        "solved", "puzzle_rating_before", "puzzle__themes"
    )
    tally: dict[str, list] = {}
    everything = [0, 0, 0.0]
    for solved, rating, themes in rated:
        for key in [*themes, None]:
            row = everything if key is None else tally.setdefault(key, [0, 0, 0.0])
            row[0] += 1
            row[1] += int(solved)
            row[2] += rating
    stats = [ThemeStats(t, n, won, total / n) for t, (n, won, total) in tally.items()]
    stats.sort(key=lambda s: (-s.attempts, s.theme))
    ranked = sorted(
        (s for s in stats if s.attempts >= DASHBOARD_MIN_ATTEMPTS),
        key=lambda s: (-s.performance, s.theme),
    )
    n, won, total = everything
    solved_later = TrainingAttempt.objects.filter(user=user, solved=True, puzzle=OuterRef("pk"))
    failed = (
        TrainingPuzzle.objects.filter(
            Q(attempts__user=user) & Q(attempts__rated=True) & Q(attempts__solved=False)
        )
        .filter(~Exists(solved_later))
        .order_by("-attempts__created_at")[:replay_limit]
    )
    return Dashboard(
        overall=ThemeStats("", n, won, total / n) if n else None,
        themes=stats,
        strongest=ranked[:3],
        weakest=list(reversed(ranked[3:][-3:])),
        to_replay=list(failed),
    )
