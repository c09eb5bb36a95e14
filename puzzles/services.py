"""Writes for the daily puzzle: making a date's puzzle once, judging submissions, give-ups.

Rating rule: a user's first attempt at a puzzle (a submission or a give-up,
whichever comes first) is one rated game between the user and the puzzle;
both ratings move, later attempts are kept but move nothing.

Streak rule: a day counts when the user solves that day's puzzle on that
day (UTC) without having given up on it first; the streak is the run of
such consecutive days. Solving archive puzzles never counts, so the
streak says "came back every day", which is what it rewards.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import puzzles as engine_puzzles
from engine.errors import EngineError
from games import engine_text, thinking
from kit import metrics
from kit.text import sentence
from puzzles.models import DailyPuzzle, PuzzleAttempt, PuzzleStreak
from ratings import elo
from ratings.services import rating_record_puzzle

# The first key of PostgreSQL's two-key advisory locks held while a date's puzzle is made.
_DAILY_LOCK_NAMESPACE = 0x7A21


class SubmissionRefused(ValueError):
    """A submission that cannot be judged (wrong seat, illegal or malformed moves); the
    message says why, as a sentence. Nothing is stored."""

    def __init__(self, reason: str):
        super().__init__(sentence(str(reason)))


@dataclass(frozen=True)
class Verdict:
    """The judgement of a submission, with what it changed for a signed-in solver."""

    score: int | None
    optimum: int
    solved: bool
    # The answer: set only once the solver has solved the puzzle or given up on it.
    line: list[str] | None
    rated: bool = False
    rating_before: float | None = None
    rating_after: float | None = None
    streak: int | None = None


def daily_puzzle_get_or_create(*, date: datetime.date) -> DailyPuzzle:
    """The puzzle of ``date``, made by the engine and stored the first time anyone asks.

    Making one takes seconds, so concurrent first requests must not each make
    it: on PostgreSQL they queue on an advisory lock for the date and all but
    the first find the row made by the first. On SQLite the write transaction
    (BEGIN IMMEDIATE) already queues them. ``get_or_create`` still settles a
    race on the unique date should anything bypass the lock.
    """
    existing = DailyPuzzle.objects.filter(date=date).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)",
                    [_DAILY_LOCK_NAMESPACE, date.toordinal()],
                )
        existing = DailyPuzzle.objects.filter(date=date).first()
        if existing is not None:
            return existing
        puzzle, _created = DailyPuzzle.objects.get_or_create(
            date=date, defaults=_stored_fields(date)
        )
    return puzzle


def daily_puzzle_prepare_tomorrow() -> DailyPuzzle:
    """Make tomorrow's puzzle ahead of time (beat runs this; safe to run any number of times)."""
    return daily_puzzle_get_or_create(date=timezone.localdate() + datetime.timedelta(days=1))


def _stored_fields(date: datetime.date) -> dict[str, Any]:
    with metrics.PUZZLE_GENERATION.time():
        record = engine_puzzles.daily(date).to_json()
    return {
        "seed_hex": record["seed"],
        "candidate": record["candidate"],
        "position": record["position"],
        "seat": record["seat"],
        "k": record["k"],
        "optimum": record["optimum"],
        "line": record["line"],
        "optimal_first_moves": record["optimal_first_moves"],
        "legal_first_moves": record["legal_first_moves"],
        "greedy": record["greedy"],
        "difficulty": record["difficulty"],
        "rating": record["rating"],
    }


def checked_moves(puzzle: DailyPuzzle, submission: Any, *, complete: bool) -> list[str]:
    """The moves of a submission ``{"seat": n, "moves": [...]}`` after the shape checks.

    ``complete``: exactly K moves are required (a final submission); otherwise
    up to K (a position on the way). SubmissionRefused says what is wrong.
    """
    if not isinstance(submission, dict):
        raise SubmissionRefused(_('Expected a JSON object {"seat": ..., "moves": [...]}.'))
    unknown = sorted(set(submission) - {"seat", "moves"})
    if unknown:
        raise SubmissionRefused(_("Unknown field %(field)s.") % {"field": repr(unknown[0])})
    seat = submission.get("seat")
    if type(seat) is not int:
        raise SubmissionRefused(
            _("Seat: expected the solver's seat number, got %(seat)s.") % {"seat": repr(seat)}
        )
    if seat != puzzle.seat:
        raise SubmissionRefused(
            _("Seat: this puzzle is played by seat %(solver)s, not %(seat)s.")
            % {"solver": puzzle.seat, "seat": seat}
        )
    moves = submission.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise SubmissionRefused(_('Moves: expected a list of moves in notation, e.g. "c5:S c4=*".'))
    if complete and len(moves) != puzzle.k:
        raise SubmissionRefused(
            ngettext(
                "Moves: this puzzle takes exactly %(k)s move, got %(count)s.",
                "Moves: this puzzle takes exactly %(k)s moves, got %(count)s.",
                puzzle.k,
            )
            % {"k": puzzle.k, "count": len(moves)}
        )
    if len(moves) > puzzle.k:
        # More moves than visitors left: at least two, so "moves" is always plural.
        raise SubmissionRefused(
            ngettext(
                "Moves: only %(k)s visitor is left, got %(count)s moves.",
                "Moves: only %(k)s visitors are left, got %(count)s moves.",
                puzzle.k,
            )
            % {"k": puzzle.k, "count": len(moves)}
        )
    return moves


def puzzle_attempt_submit(*, puzzle: DailyPuzzle, user, submission: Any) -> Verdict:
    """Judge a submission by replaying it through the engine; keep it for a signed-in user.

    A refused submission (SubmissionRefused) stores nothing and moves nothing.
    """
    moves = checked_moves(puzzle, submission, complete=True)
    try:
        score = engine_puzzles.grade(puzzle.position, moves)
    except EngineError as error:
        raise SubmissionRefused(engine_text.error_message(error)) from error
    solved = score >= puzzle.optimum
    if not user.is_authenticated:
        return Verdict(
            score=score, optimum=puzzle.optimum, solved=solved, line=puzzle.line if solved else None
        )
    with transaction.atomic():
        locked = DailyPuzzle.objects.select_for_update().get(pk=puzzle.pk)
        earlier = PuzzleAttempt.objects.filter(user=user, puzzle=locked)
        gave_up = earlier.filter(gave_up=True).exists()
        attempt = PuzzleAttempt(puzzle=locked, user=user, moves=moves, score=score, solved=solved)
        _rate_if_first(attempt, first=not earlier.exists())
        attempt.save()
        streak = _streak_extend(user=user, puzzle=locked) if solved and not gave_up else None
        revealed = solved or gave_up or earlier.filter(solved=True).exists()
    return _verdict(attempt, locked, line=locked.line if revealed else None, streak=streak)


def puzzle_give_up(*, puzzle: DailyPuzzle, user) -> Verdict:
    """Reveal one optimal line; for a signed-in user who had not tried yet, a rated loss."""
    if not user.is_authenticated:
        return Verdict(score=None, optimum=puzzle.optimum, solved=False, line=puzzle.line)
    with transaction.atomic():
        locked = DailyPuzzle.objects.select_for_update().get(pk=puzzle.pk)
        earlier = PuzzleAttempt.objects.filter(user=user, puzzle=locked)
        attempt = earlier.filter(gave_up=True).first()
        if attempt is None:
            attempt = PuzzleAttempt(puzzle=locked, user=user, gave_up=True)
            _rate_if_first(attempt, first=not earlier.exists())
            attempt.save()
    return _verdict(attempt, locked, line=locked.line, streak=None)


def _verdict(attempt: PuzzleAttempt, puzzle: DailyPuzzle, *, line, streak) -> Verdict:
    return Verdict(
        score=attempt.score,
        optimum=puzzle.optimum,
        solved=attempt.solved,
        line=line,
        rated=attempt.rated,
        rating_before=attempt.user_rating_before,
        rating_after=attempt.user_rating_after,
        streak=streak,
    )


def _rate_if_first(attempt: PuzzleAttempt, *, first: bool) -> None:
    """Play the rated game user vs puzzle for a first attempt (the puzzle row is locked)."""
    if first:
        attempt_rate(attempt, puzzle_key=f"daily:{attempt.puzzle.date.isoformat()}")


def attempt_rate(attempt, *, puzzle_key: str, most_change: float | None = None) -> None:
    """One rated game between ``attempt``'s user and its puzzle (a daily or a training one,
    its row locked), stored on the attempt and the puzzle; the puzzle's rating moves by at
    most ``most_change`` when given."""
    puzzle = attempt.puzzle
    change = rating_record_puzzle(
        user=attempt.user,
        puzzle_key=puzzle_key,
        puzzle_rating=puzzle.rating,
        solved=attempt.solved,
    )
    # The puzzle is a player too: it wins when the solver falls short.
    puzzle_rank, solver_rank = (2, 1) if attempt.solved else (1, 2)
    puzzle_side, _solver_side = elo.rate_game(
        [
            elo.Entrant(rating=puzzle.rating, games=puzzle.rated_attempts, rank=puzzle_rank),
            elo.Entrant(rating=change.before, games=0, rank=solver_rank),
        ]
    )
    puzzle_after = puzzle_side.after
    if most_change is not None:
        puzzle_after = puzzle.rating + max(-most_change, min(most_change, puzzle_side.change))
    attempt.rated = True
    attempt.user_rating_before = change.before
    attempt.user_rating_after = change.after
    attempt.puzzle_rating_before = puzzle.rating
    attempt.puzzle_rating_after = puzzle_after
    puzzle.rating = attempt.puzzle_rating_after
    puzzle.rated_attempts += 1
    puzzle.save(update_fields=["rating", "rated_attempts"])


def _streak_extend(*, user, puzzle: DailyPuzzle) -> int:
    """Count a solve towards the streak if it is today's puzzle; the streak as it now stands."""
    today = timezone.localdate()
    PuzzleStreak.objects.get_or_create(user=user)
    streak = PuzzleStreak.objects.select_for_update().get(user=user)
    if puzzle.date == today and streak.last_solved != today:
        yesterday = today - datetime.timedelta(days=1)
        streak.current = streak.current + 1 if streak.last_solved == yesterday else 1
        streak.best = max(streak.best, streak.current)
        streak.last_solved = today
        streak.save(update_fields=["current", "best", "last_solved"])
    return streak.current_on(today)


# --------------------------------------------------------------------------- training pool
# Mined puzzles (issue 44): rows of ``TrainingPuzzle`` made from ``engine.mining``'s
# ``MinedPuzzle``. Rated training itself (attempts, selection) builds on these rows.

#: The self-play seed of the beat job that tops the pool up, per game kind, and how many
#: puzzles of a kind the job stops at.
TOP_UP_SEEDS = {"topiary": "topiary-topup-1", "wizards_garden": "wizards-garden-topup-1"}
TOP_UP_TARGET = 20_000
_TOP_UP_CURSOR_KEY = "puzzles:top-up-next:{seed}"


def _training_fields(mined, *, origin, source_game, source_user, seed: str) -> dict[str, Any]:
    return {
        "kind": mined.kind,
        "position": mined.position,
        "seat": mined.seat,
        "k": mined.k,
        "optimum": mined.optimum,
        "greedy": mined.greedy,
        "played": mined.played,
        "line": list(mined.line),
        "optimal_first_moves": list(mined.optimal_first_moves),
        "legal_first_moves": mined.legal_first_moves,
        "nodes": mined.nodes,
        "themes": list(mined.themes),
        "difficulty": mined.difficulty,
        "rating": float(mined.rating),
        "origin": origin,
        "source_game": source_game,
        "source_user": source_user,
        "source_ply": mined.source_ply,
        "seed": seed,
        "fingerprint": mined.fingerprint,
    }


def training_puzzle_add(mined, *, origin, source_game=None, source_user=None, seed=""):
    """Store one mined puzzle (``engine.mining.MinedPuzzle``); None if a puzzle with its
    fingerprint (kind, position, seat, K) is stored already. Safe under concurrency: the
    unique fingerprint settles a race, the loser gets None."""
    from django.db import IntegrityError

    from puzzles.models import TrainingPuzzle

    fields = _training_fields(
        mined, origin=origin, source_game=source_game, source_user=source_user, seed=seed
    )
    try:
        with transaction.atomic():
            return TrainingPuzzle.objects.create(**fields)
    except IntegrityError:
        if TrainingPuzzle.objects.filter(fingerprint=fields["fingerprint"]).exists():
            return None
        raise


def training_puzzles_load(lines) -> int:
    """Store the puzzles of a pool file's JSON lines (``MinedPuzzle.to_json`` plus ``seed``),
    skipping fingerprints already stored; how many were added. Running it again adds none."""
    from engine.mining import MinedPuzzle
    from puzzles.models import TrainingPuzzle

    rows = []
    for data in lines:
        mined = MinedPuzzle.from_json(data)
        if data.get("fingerprint") not in (None, mined.fingerprint):
            raise ValueError(f"pool line {data.get('seed')}: fingerprint does not match")
        rows.append(
            TrainingPuzzle(
                **_training_fields(
                    mined,
                    origin=TrainingPuzzle.Origin.SELF_PLAY,
                    source_game=None,
                    source_user=None,
                    seed=data.get("seed", ""),
                )
            )
        )
    before = TrainingPuzzle.objects.count()
    TrainingPuzzle.objects.bulk_create(rows, batch_size=500, ignore_conflicts=True)
    return TrainingPuzzle.objects.count() - before


def game_puzzles_mine(*, game_id: int) -> int:
    """Mine a finished game's endings for its human seats (not bots, not forfeited seats,
    whose last turns a stand-in played) and store the puzzles with the game and player
    they came from; how many were new. Running it again stores nothing new."""
    from engine import mining
    from games.models import Game
    from puzzles.models import TrainingPuzzle

    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or not game.record or game.kind not in mining.MINERS:
        return 0
    humans = {
        seat.index: seat.user
        for seat in game.seats.select_related("user")
        if seat.user is not None and not seat.user.is_bot and not seat.forfeit
    }
    if not humans:
        return 0
    stored = 0
    found = thinking.elsewhere(thinking.as_list, mining.mine_record, game.record, sorted(humans))
    for mined in found:
        row = training_puzzle_add(
            mined,
            origin=TrainingPuzzle.Origin.GAME,
            source_game=game,
            source_user=humans[mined.seat],
        )
        stored += row is not None
    return stored


def self_play_mine(
    *,
    kind: str,
    seed: str,
    start: int,
    games: int,
    seats: tuple[int, ...] | None = None,
    depths: tuple[int, ...] | None = None,
) -> tuple[int, int]:
    """Play self-play games ``start`` .. ``start + games - 1`` of ``seed`` (``seats``: the
    cycle of table sizes, default the game's own) and store their puzzles; (puzzles mined,
    puzzles new)."""
    from engine import mining
    from puzzles.models import TrainingPuzzle

    mined_count = stored = 0
    for index in range(start, start + games):
        play = partial(mining.mine_self_play, kind, seed, index, seats=seats, depths=depths)
        for mined in thinking.elsewhere(play):
            mined_count += 1
            row = training_puzzle_add(
                mined, origin=TrainingPuzzle.Origin.SELF_PLAY, seed=f"{seed}/{index}"
            )
            stored += row is not None
    return mined_count, stored


def training_pool_top_up(*, kind: str, games: int = 1) -> int:
    """Mine the next ``games`` self-play games of ``kind``'s top-up seed if the pool holds
    fewer than ``TOP_UP_TARGET`` puzzles of it; puzzles added. The next game index is kept
    in the cache (an atomic increment, so two runs never mine the same game); after a cache
    loss it starts again from the highest index stored."""
    from django.core.cache import cache

    from puzzles.models import TrainingPuzzle

    if TrainingPuzzle.objects.filter(kind=kind).count() >= TOP_UP_TARGET:
        return 0
    seed = TOP_UP_SEEDS[kind]
    key = _TOP_UP_CURSOR_KEY.format(seed=seed)
    if cache.get(key) is None:
        stored = TrainingPuzzle.objects.filter(seed__startswith=f"{seed}/").values_list(
            "seed", flat=True
        )
        done = max((int(s.rsplit("/", 1)[1]) for s in stored), default=-1)
        cache.add(key, done + 1, timeout=None)
    added = 0
    for _game in range(games):
        index = cache.incr(key) - 1
        added += self_play_mine(kind=kind, seed=seed, start=index, games=1)[1]
    return added
