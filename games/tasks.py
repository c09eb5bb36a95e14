"""Celery tasks: thin wrappers around games.services, taking ids and plies only.

Payloads never carry hidden information: a task reads what it needs from the
database. Every task is safe to run twice.
"""

import logging

from celery import shared_task

from games import seeks, services
from kit.durable import DURABLE
from kit.logs import about_game

log = logging.getLogger(__name__)


@shared_task(**DURABLE)
def bot_move(game_id: int, ply: int) -> None:
    """Play the bot's move answering the position at ``ply``; nothing if the game moved on."""
    with about_game(game_id):
        services.bot_move_play(game_id=game_id, ply=ply)


@shared_task(**DURABLE)
def house_bot_answer(game_id: int) -> None:
    """The invited house bot accepts an outside bot's challenge; nothing if already answered."""
    with about_game(game_id):
        services.house_bot_answer(game_id=game_id)


@shared_task(**DURABLE)
def game_score(game_id: int) -> None:
    """Score a finished game (record, ranks, ratings, signal); nothing if already scored."""
    with about_game(game_id):
        try:
            services.game_score(game_id=game_id)
        except services.Refused as refusal:
            if refusal.code != "not_found":
                raise


@shared_task(**DURABLE)
def games_score(game_ids: list[int]) -> None:
    """Score each of a batch of finished games (``games.score_batches``); a game that
    fails is left to the sweep, the others are scored."""
    for game_id in game_ids:
        with about_game(game_id):
            try:
                services.game_score(game_id=game_id)
            except services.Refused as refusal:
                if refusal.code != "not_found":
                    log.warning("scoring refused (%s); the sweep queues it again", refusal.code)
            except DURABLE["autoretry_for"]:
                raise  # the batch is tried again; a game scored already is not scored twice
            except Exception:
                log.exception("scoring failed; the sweep queues it again")


@shared_task(acks_late=True)
def games_sweep() -> dict:
    """The periodic job: flag clocks that ran out, queue again bot turns that hang."""
    return services.games_sweep()


@shared_task(acks_late=True)
def vacations_sweep() -> dict:
    """The periodic job: clocks of vacations that ran out start again (and any game a
    vacation's change missed is brought in step)."""
    return services.vacations_sweep()


@shared_task(acks_late=True)
def seeks_top_up() -> dict:
    """The periodic job: bots fill quick-pairing tables whose chosen wait is over."""
    return seeks.seeks_top_up()
