"""The chat rooms of games and the lobby (registered with ``chat.rooms``).

A game has two rooms, like lichess: its players' and its spectators'. Spectators
never read the players' room, and players do not read the spectators' room while the
game runs (so nobody watching can tip a player); once it is over the players read it
too. The rooms are pushed to the game's existing socket groups.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from chat.rooms import Room, place, write_closed
from games import live, selectors
from games.models import Game

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


@place("game")
def game_rooms(game_id, user) -> list[Room]:
    try:
        game, seats = selectors.game_with_seats(game_id)
    except Game.DoesNotExist:
        return []
    closed = write_closed(user)
    seat_groups = tuple(live.seat_group(game_id, seat.index) for seat in seats)
    over = game.status in OVER
    watchers = (live.watchers_group(game_id), *(seat_groups if over else ()))
    spectators = Room(f"game-{game_id}-spectators", "spectators", _("Spectators"), watchers, closed)
    if selectors.seat_of(seats, user) is None:
        return [spectators]
    players = Room(f"game-{game_id}-players", "players", _("Players"), seat_groups, closed)
    if not over:
        return [players]
    watched = Room(
        spectators.key,
        spectators.name,
        spectators.title,
        watchers,
        _("Players read the spectators' room once the game is over; they write in their own."),
    )
    return [players, watched]


@place("lobby")
def lobby_rooms(_place_id, user) -> list[Room]:
    return [Room("lobby", "lobby", _("Lobby"), (live.LOBBY_GROUP,), write_closed(user))]
