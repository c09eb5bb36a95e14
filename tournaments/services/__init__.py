"""Writes of the tournaments app: create, join, withdraw, start, pair, score, finish.

Every change to a running event goes through ``tournament_advance``, which locks the
tournament row first: a beat tick, a finished game and a restarted worker can all
call it at once and the round is still paired once (``Round`` numbers are unique
per tournament as a second guard). All state is in the database. Each concern has its
own module behind it:

- ``writer``: the tournament row locked, the version bumped and watchers told on commit;
- ``events``: creating, editing and cancelling an event, and judging its settings;
- ``entries``: joining, the creator's bots, withdrawing;
- ``pairings``: rounds stored and begun, arena pairs, each table's game created;
- ``starting``: the start at its time (or the cancellation for want of players), early starts;
- ``advancing``: ended games scored, the next round or arena pairs, the finish.

Callers use the names below (``from tournaments import services``;
``services.tournament_join``).
"""

from __future__ import annotations

from tournaments.services.advancing import SCORING_OVERDUE, tournament_advance
from tournaments.services.entries import (
    tournament_enter_bot,
    tournament_join,
    tournament_withdraw,
    tournament_withdraw_bot,
)
from tournaments.services.events import (
    CLOCK_SECONDS,
    EDITABLE,
    MAX_DAYS_AHEAD,
    MAX_INCREMENT,
    NAME_LENGTH,
    Format,
    tournament_cancel,
    tournament_create,
    tournament_edit,
    tournament_settings_clean,
)
from tournaments.services.starting import tournament_start_early

__all__ = [
    "CLOCK_SECONDS",
    "EDITABLE",
    "MAX_DAYS_AHEAD",
    "MAX_INCREMENT",
    "NAME_LENGTH",
    "SCORING_OVERDUE",
    "Format",
    "tournament_advance",
    "tournament_cancel",
    "tournament_create",
    "tournament_edit",
    "tournament_enter_bot",
    "tournament_join",
    "tournament_settings_clean",
    "tournament_start_early",
    "tournament_withdraw",
    "tournament_withdraw_bot",
]
