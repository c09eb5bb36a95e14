"""What games do when an account closes, exports its data or goes on vacation
(``accounts.hooks``)."""

from __future__ import annotations

import contextlib

from django.db.models import Q

from accounts.hooks import export_part
from games import services
from games.history_selectors import game_record
from games.models import Game


def account_closing(sender, user, **kwargs) -> None:
    """Cancel the player's open tables and challenges, and resign their running games
    (at 3-4 players a bot plays on for them, as after a flag)."""
    open_tables = Game.objects.filter(
        Q(seats__user=user) | Q(invited=user) | Q(created_by=user), status=Game.Status.OPEN
    ).distinct()
    for game_id in list(open_tables.values_list("pk", flat=True)):
        with contextlib.suppress(services.Refused):
            services.table_leave(game_id=game_id, user=user)
    running = Game.objects.filter(
        seats__user=user, seats__forfeit="", status=Game.Status.ACTIVE
    ).distinct()
    for game_id in list(running.values_list("pk", flat=True)):
        with contextlib.suppress(services.Refused):
            services.game_resign(game_id=game_id, user=user)


def vacation_changed(sender, user, **kwargs) -> None:
    """The player went away or came back: stop or start their correspondence clocks."""
    services.vacation_sync_player(user_id=user.pk)


def player_blocked(sender, blocker, blocked, **kwargs) -> None:
    """Decline the blocked player's challenges still waiting for the one who blocked them."""
    waiting = Game.objects.filter(created_by=blocked, invited=blocker, status=Game.Status.OPEN)
    for game_id in list(waiting.values_list("pk", flat=True)):
        with contextlib.suppress(services.Refused):
            services.table_leave(game_id=game_id, user=blocker)


@export_part("games")
def finished_game_records(user) -> list[tuple[str, object]]:
    """Each finished game's record; a running game's would hold what the player may not see."""
    games = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).distinct()
    return [
        (f"games/{game.kind}-{game.pk}.json", game_record(game))
        for game in games.prefetch_related("seats__user").order_by("pk")
    ]
