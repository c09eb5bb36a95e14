"""What the alerts hear from games and tournaments: each queues a task (ids only), after
the commit of the change it is about, so no alert is decided on a move's own path.

Only players who turned some alert on get a task: one indexed read here spares the
broker a task for every move of every player who never did.
"""

from __future__ import annotations

from alerts import selectors, tasks
from alerts.models import Event


def _queue(event: Event, subject: int, user_ids: list[int], ply: int = 0) -> None:
    for user_id in selectors.reachable(user_ids):
        tasks.alert_send.delay(event.value, subject, user_id, ply)


def turn_came(sender, game_id: int, ply: int, user_id: int, **kwargs) -> None:
    _queue(Event.TURN, game_id, [user_id], ply)


def challenge_sent(sender, game_id: int, user_id: int, **kwargs) -> None:
    _queue(Event.CHALLENGE, game_id, [user_id])


def game_started(sender, game_id: int, user_ids: list[int], **kwargs) -> None:
    _queue(Event.STARTED, game_id, user_ids)


def game_finished(sender, game, **kwargs) -> None:
    user_ids = list(game.seats.exclude(user=None).values_list("user_id", flat=True))
    _queue(Event.ENDED, game.pk, user_ids)


def tournament_started(sender, tournament_id: int, user_ids: list[int], **kwargs) -> None:
    _queue(Event.TOURNAMENT, tournament_id, user_ids)
