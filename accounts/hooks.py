"""What other apps do when an account closes or exports its data.

Accounts is the bottom app: it may not import the apps above it (games, ratings,
puzzles, tournaments), so each of them registers what it holds of a player here, from
its ``AppConfig.ready``: ``account_closing`` receivers cancel and resign what the player
still has running, and export parts add the player's data to the archive.
"""

from __future__ import annotations

from collections.abc import Callable

from django.dispatch import Signal

#: Sent by ``accounts.services.account_close`` (``user=``) before the account is wiped;
#: receivers end what the player has running (tables, games, tournament entries).
account_closing = Signal()

#: Sent by ``accounts.services.vacation_start`` and ``vacation_end`` (``user=``) once the
#: player's ``Preferences.vacation_until`` changed and was committed: the games app stops or
#: starts the player's correspondence clocks.
vacation_changed = Signal()

#: Sent by ``accounts.services.block_set`` (``blocker=``, ``blocked=``) once a new block is
#: committed: the games app declines the blocked player's challenges waiting for the blocker.
player_blocked = Signal()

#: name -> function(user) giving ``[(path in the archive, JSON-ready data), ...]``.
EXPORT_PARTS: dict[str, Callable[[object], list[tuple[str, object]]]] = {}


def export_part(name: str):
    """Register a function giving a player's files for the data export under ``name``."""

    def register(function):
        EXPORT_PARTS[name] = function
        return function

    return register
