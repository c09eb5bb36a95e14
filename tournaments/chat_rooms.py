"""A tournament's chat room (registered with ``chat.rooms``): everyone may read it,
every signed-in person may write in it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from chat.rooms import Room, place, write_closed
from tournaments.models import Tournament
from tournaments.selectors import tournament_group


@place("tournament")
def tournament_rooms(tournament_id, user) -> list[Room]:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return []
    return [
        Room(
            f"tournament-{tournament_id}",
            "tournament",
            _("Tournament"),
            (tournament_group(tournament_id),),
            write_closed(user),
        )
    ]
