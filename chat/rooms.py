"""Which chat rooms a place has and who may read and write each (the registry).

Chat sits below the apps that own the places (games, tournaments), so it knows no
game: each owner registers a function ``(place_id, user) -> [Room, ...]`` for its kind
of place from its ``AppConfig.ready`` (``games.chat_rooms``, ``tournaments.chat_rooms``),
listing the rooms ``user`` may read there. A room names the channel-layer groups of
the sockets that read it live, so a message is pushed to exactly those sockets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Room:
    """One room as one user may use it."""

    #: Stored on each message: the room's history, e.g. "game-12-players".
    key: str
    #: The place's name for it, sent in frames: "players", "spectators", "lobby", "tournament".
    name: str
    #: Shown on the page: "Players", "Spectators"... (translated when the room is listed).
    title: str
    #: Channel-layer groups whose sockets read it live.
    groups: tuple[str, ...]
    #: Why this user may not write here ("" when they may).
    closed: str = ""


#: place kind ("game", "lobby", "tournament") -> rooms a user may read at a place.
PLACES: dict[str, Callable[[int | None, object], list[Room]]] = {}


def place(kind: str):
    """Register the function listing the rooms of a ``kind`` of place."""

    def register(function):
        PLACES[kind] = function
        return function

    return register


def rooms_for(kind: str, place_id: int | None, user) -> list[Room]:
    """The rooms ``user`` may read at a place (none for an unknown kind)."""
    function = PLACES.get(kind)
    return [] if function is None else function(place_id, user)


def write_closed(user) -> str:
    """Why ``user`` may write in no room at all, or "" (in the active language)."""
    if user is None or not user.is_authenticated:
        return _("Sign in to chat.")
    if user.is_bot:
        return _("Bots do not chat.")
    return ""
