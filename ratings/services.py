"""Writes of the ratings app: a finished game or a puzzle attempt moves ratings, once."""

from __future__ import annotations

import math

from django.db import transaction

from games.models import Game
from ratings import elo
from ratings.models import PUZZLE, Rating, RatingChange
from ratings.selectors import start_ratings


def _locked_ratings(*, user_ids: list[int], kind: str) -> dict[int, Rating]:
    """The players' ratings of ``kind``, created at the start value if new, locked for update.

    Rows are locked in user id order so two games finishing at once with a
    player in common cannot deadlock.
    """
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, kind=kind, value=value) for user_id, value in
         start_ratings(user_ids=user_ids, kind=kind).items()],
        ignore_conflicts=True,
    )  # fmt: skip
    locked = Rating.objects.select_for_update().filter(kind=kind, user_id__in=user_ids)
    return {rating.user_id: rating for rating in locked.order_by("user_id")}


def _store(rating: Rating, outcome: elo.Outcome, **source) -> RatingChange:
    change = RatingChange.objects.create(
        user_id=rating.user_id,
        kind=rating.kind,
        before=outcome.before,
        after=outcome.after,
        k=outcome.k,
        score=outcome.score,
        expected=outcome.expected,
        **source,
    )
    rating.value = outcome.after
    rating.games += 1
    rating.save(update_fields=["value", "games", "updated_at"])
    return change


def ratings_apply_game(*, game: Game) -> list[RatingChange]:
    """Move the ratings of every player of a finished rated game, exactly once.

    Safe to call again (or twice at once): the game row is locked and a game
    that already moved ratings returns its stored changes unchanged. Casual,
    unfinished and aborted games, and games where one user holds several
    seats, change nothing and return ``[]``. Ranks come from ``Seat.rank``
    (1 is first; equal ranks are a shared victory or a draw).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        done = list(RatingChange.objects.filter(game=game).order_by("user_id"))
        if done or not game.rated or game.status != Game.Status.FINISHED:
            return done
        seats = list(game.seats.order_by("index"))
        user_ids = [seat.user_id for seat in seats]
        if len(seats) < 2 or None in user_ids or len(set(user_ids)) != len(seats):
            return []
        unranked = [seat.index for seat in seats if seat.rank is None]
        if unranked:
            raise ValueError(f"game {game.pk}: seat {unranked[0]} has no rank; score it first")
        ratings = _locked_ratings(user_ids=user_ids, kind=game.kind)
        outcomes = elo.rate_game(
            [
                elo.Entrant(
                    rating=ratings[seat.user_id].value,
                    games=ratings[seat.user_id].games,
                    rank=seat.rank,
                )
                for seat in seats
            ]
        )
        return [
            _store(ratings[seat.user_id], outcome, game=game)
            for seat, outcome in zip(seats, outcomes, strict=True)
        ]


def rating_record_puzzle(
    *, user, puzzle_key: str, puzzle_rating: float, solved: bool
) -> RatingChange:
    """Move ``user``'s puzzle rating for one attempt at a puzzle, once per (user, puzzle_key).

    A solved puzzle is a win against a player rated ``puzzle_rating``, a
    failed one a loss. Calling again for the same puzzle returns the first
    change untouched, so the puzzle app can move the puzzle's own rating
    from its ``before``/``expected``/``score``.
    """
    if not isinstance(puzzle_key, str) or not puzzle_key.strip():
        raise ValueError("puzzle_key: a non-empty text naming the puzzle is required")
    if len(puzzle_key) > RatingChange._meta.get_field("puzzle_key").max_length:
        raise ValueError(f"puzzle_key: {puzzle_key[:20]!r}... is longer than 100 characters")
    if isinstance(puzzle_rating, bool) or not isinstance(puzzle_rating, int | float):
        raise ValueError(f"puzzle_rating: expected a number, got {puzzle_rating!r}")
    if not math.isfinite(puzzle_rating):
        raise ValueError(f"puzzle_rating: expected a finite number, got {puzzle_rating!r}")
    with transaction.atomic():
        rating = _locked_ratings(user_ids=[user.pk], kind=PUZZLE)[user.pk]
        done = RatingChange.objects.filter(user=user, puzzle_key=puzzle_key).first()
        if done is not None:
            return done
        outcome = elo.rate_puzzle(rating.value, rating.games, float(puzzle_rating), bool(solved))
        return _store(rating, outcome, puzzle_key=puzzle_key)
