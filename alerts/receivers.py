"""What the alerts hear from games and tournaments: each queues a task (ids only), after
the commit of the change it is about, so no alert is decided on a move's own path."""

from __future__ import annotations

from alerts import tasks
from alerts.models import Event, PushSubscription


def turn_came(sender, game_id: int, ply: int, user_id: int, **kwargs) -> None:
    tasks.alert_send.delay(Event.TURN.value, game_id, user_id, ply)


def challenge_sent(sender, game_id: int, user_id: int, **kwargs) -> None:
    tasks.alert_send.delay(Event.CHALLENGE.value, game_id, user_id)


def game_started(sender, game_id: int, user_ids: list[int], **kwargs) -> None:
    for user_id in user_ids:
        tasks.alert_send.delay(Event.STARTED.value, game_id, user_id)


def game_finished(sender, game, **kwargs) -> None:
    for user_id in game.seats.exclude(user=None).values_list("user_id", flat=True):
        tasks.alert_send.delay(Event.ENDED.value, game.pk, user_id)


def tournament_started(sender, tournament_id: int, user_ids: list[int], **kwargs) -> None:
    for user_id in user_ids:
        tasks.alert_send.delay(Event.TOURNAMENT.value, tournament_id, user_id)


def account_closing(sender, user, **kwargs) -> None:
    """A closed account's browsers are forgotten at once."""
    PushSubscription.objects.filter(user=user).delete()
