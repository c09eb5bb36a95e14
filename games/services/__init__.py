"""Writes for games: tables, seats, moves, clocks, endings, takebacks, scoring and rematches.

One writer per game: every change to a running game goes through ``writer._with_game``,
which holds the game's row lock for the whole read-check-write and tells sockets and
tasks only after the commit. Each concern has its own module behind it, as lila's round
keeps its Takebacker, Rematcher and Finisher apart:

- ``writer``: the one writer, ``Refused``, and the pushes and tasks queued on commit;
- ``tables``: opening, challenging, seating and starting a game;
- ``turns``: moves by players and bots, clocks, forfeits, the end, the periodic sweep;
- ``giving_up``: resigning, aborting, claiming, and players' signs of life;
- ``takebacks``, ``scoring``, ``rematch``;
- ``vacations``: correspondence clocks stopped while their player is away;
- ``invites``: a table's invite link.

Callers use the names below (``from games import services``; ``services.move_play``).
"""

from __future__ import annotations

from games.services.giving_up import (
    game_abort,
    game_claim,
    game_counts,
    game_resign,
    presence_note,
    presence_record,
    seat_seen,
)
from games.services.invites import invite_table, invite_token
from games.services.rematch import rematch_answer, rematch_cancel, rematch_lapse, rematch_offer
from games.services.scoring import game_score
from games.services.tables import (
    BOT_LEVELS,
    bot_game_create,
    bot_level_choices,
    bot_pick,
    challenge_create,
    game_create,
    house_bot_answer,
    human_check,
    invite_join,
    players_refusal,
    table_create,
    table_fill_with_bots,
    table_join,
    table_leave,
)
from games.services.takebacks import takeback_answer, takeback_offer
from games.services.turns import (
    BOT_OVERDUE,
    BOT_REQUEUE_EVERY,
    MOVE_FIELDS,
    MOVE_MAX_LENGTH,
    SCORE_OVERDUE,
    STAND_IN_LEVEL,
    STOP_FIELDS,
    bot_move_play,
    clock_check,
    games_sweep,
    move_play,
)
from games.services.vacations import vacation_sync, vacation_sync_player, vacations_sweep
from games.services.writer import Refused

__all__ = [
    "BOT_LEVELS",
    "BOT_OVERDUE",
    "BOT_REQUEUE_EVERY",
    "MOVE_FIELDS",
    "MOVE_MAX_LENGTH",
    "SCORE_OVERDUE",
    "STAND_IN_LEVEL",
    "STOP_FIELDS",
    "Refused",
    "bot_game_create",
    "bot_level_choices",
    "bot_move_play",
    "bot_pick",
    "challenge_create",
    "clock_check",
    "game_abort",
    "game_claim",
    "game_counts",
    "game_create",
    "game_resign",
    "game_score",
    "games_sweep",
    "house_bot_answer",
    "human_check",
    "invite_join",
    "invite_table",
    "invite_token",
    "move_play",
    "players_refusal",
    "presence_note",
    "presence_record",
    "rematch_answer",
    "rematch_cancel",
    "rematch_lapse",
    "rematch_offer",
    "seat_seen",
    "table_create",
    "table_fill_with_bots",
    "table_join",
    "table_leave",
    "takeback_answer",
    "takeback_offer",
    "vacation_sync",
    "vacation_sync_player",
    "vacations_sweep",
]
