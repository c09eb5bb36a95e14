"""Scoring a finished game: its record, seat scores and ranks, and what apps above add."""

from __future__ import annotations

from django.db import transaction

from games.models import Game, Seat
from games.services.writer import _after_commit_game, _with_game
from games.signals import game_finished, game_scored


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
