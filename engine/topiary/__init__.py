"""Topiary: the rules of /work/shared/rules/TOPIARY.md, notation of NOTATION.md.

    state = new_game(Options(players=2), seed=1)
    state.legal_moves()              # ['a1:E', 'a1:E a1=*', 'a1:E a1=H2', ...]
    state = state.apply("c5:S c4=*")  # a whole move; or, as at the table, in two steps:
    pending = state.apply("b5:S b4")  # the take step: b4's tile is in the mover's hand now
    state = pending.apply("=R3")      # the plant step (``legal_steps()`` lists the steps)
    state.view(0).to_json()          # what seat 0 may know
    state.score()                    # NOTATION.md's score JSON

The deal (``new_game``), exactly, so that any program can reproduce it:

1. ``rng = Rng(seed)``.
2. ``drawn_type = rng.randbelow(8)``, then ``drawn_first = rng.randbelow(players)``. Both are
   always drawn, so a deal with an explicit ``removed_type`` or ``first_player`` equal to
   the drawn one is the same deal. With 2 or 3 players the removed type is
   ``removed_type`` if given, else ``TYPES[drawn_type]`` (``TYPES = "EHNOPRSW"``); with 4
   players no type is removed. The first player is ``first_player`` if given, else
   ``drawn_first``.
3. The tiles still in the game, in the order E1..E5, H1..H5, ..., W1..W5, are put in a list
   and ``rng.shuffle(list)`` shuffles them.
4. The first 25 fill the garden face down in the order NOTATION.md's JSON lists it (rank 5
   first, files a to e in each rank); then c3 is turned face up.
5. The next 3 are seat 0's hand, the next 3 seat 1's, and so on; the rest is the box.

With the ``draft`` option, the game starts in phase ``draft``: the player last in turn
order has taken the box (the leftovers) as the tiles passed to them; each ``keep`` move keeps
3 of hand + passed tiles and passes the rest to the previous player in turn order; the first
player's pass goes back to the box and phase ``play`` starts with the first player.

Speed (perft, bots, the puzzle solver): besides the notation API, a state offers a fast
path on plain ints. ``move_codes()`` lists moves as ints, ``apply_code(code)`` plays
one without checks, ``move_name(code)`` and ``State.code_of(text)`` convert. A play move's
code is ``(position * 26 + cell) * 41 + plant`` where ``position`` indexes ``POSITIONS``,
``cell`` is the taken cell's index (``25``: no take) and ``plant`` is ``0`` for ``*`` (or
no take) and ``tile + 1`` for a hand tile; a draft move ``keep`` is ``-mask``, the bitmask of
the three kept tiles. A turn with a take can also be played in two steps (``legal_steps``,
``step_codes``): a take step's code is ``TAKE_STEP + position * 26 + cell`` and a plant
step's ``PLANT_STEP + plant``; a pending state's ``move_codes()`` are its plant steps.
Tiles are ints ``type * 5 + value - 1`` (0..39, ``TYPES`` order); a
garden cell holds a tile face up, ``tile + 40`` face down, or ``80`` (views only) for a
face-down tile the viewer does not know. Cells are indexed ``(rank - 1) * 5 + file``, a1 = 0.
``children()`` gives every next state, ``perft(state, depth)`` counts the move tree and

The package keeps one concern per module; every public name is here too:

* ``board``: tiles, cells, visitor positions and sight lines, ``Options``;
* ``moves``: move codes, move generation and move notation (``move_name``, ``join_steps``);
* ``scoring``: the scoring core (``line_points``, ``hand_points``, ``totals``) and ``winners``;
* ``view`` and ``state``: ``View``, ``State``, the deal ``new_game`` and ``perft``;
* ``dealer``: ``Dealer`` and ``sample_state``, the hidden tiles dealt at random;
* ``reading``: ``state_from_json`` and ``state_from_view_json``;
* ``fastplay``: scratch tables and random playouts for searching;
* ``bots`` and ``analysis``: the greedy and strong bots, the post-game analyst;
* ``messages``: the English of every error code the game raises; ``positions``: positions
  written as the cells that matter;
* this module: records (``make_record``, ``replay``) and the descriptor ``GAME``, which
  carries the bots, the analyst and the messages to ``engine.bots``, ``engine.analysis``
  and ``engine.errors``.
"""

from __future__ import annotations

import sys
from typing import Any

from engine import records
from engine.definition import GameDefinition, RuleOption, ScoreColumn
from engine.errors import RecordError, gettext_noop
from engine.topiary import analysis, bots, messages
from engine.topiary.board import (
    ALL_TILES,
    CELL_INDEX,
    CELLS,
    CENTRE,
    DIRECTIONS,
    FACE_DOWN,
    FILES,
    GAP,
    HAND_SIZE,
    JSON_ORDER,
    LINES,
    NAME,
    PHASES,
    POSITION_INDEX,
    POSITIONS,
    TIEBREAKS,
    TILE_INDEX,
    TILE_NAMES,
    TILE_TYPE,
    TILE_VALUE,
    TYPE_NAMES,
    TYPES,
    UNKNOWN,
    VISITORS_PER_PLAYER,
    Options,
    parse_tile,
    tile_name,
)
from engine.topiary.dealer import Dealer, sample_state
from engine.topiary.moves import (
    NO_TAKE,
    PLANT_STEP,
    TAKE_STEP,
    decode_move,
    join_steps,
    move_name,
    move_seen_by,
)
from engine.topiary.reading import state_from_json, state_from_view_json
from engine.topiary.scoring import BEATS, hand_points, line_points, totals, winners
from engine.topiary.state import State, new_game, perft
from engine.topiary.view import View

__all__ = [
    "ALL_TILES",
    "BEATS",
    "CELLS",
    "CELL_INDEX",
    "CENTRE",
    "DIRECTIONS",
    "FACE_DOWN",
    "FILES",
    "GAME",
    "GAP",
    "HAND_SIZE",
    "JSON_ORDER",
    "LINES",
    "NAME",
    "NO_TAKE",
    "PHASES",
    "PLANT_STEP",
    "POSITIONS",
    "POSITION_INDEX",
    "TAKE_STEP",
    "TIEBREAKS",
    "TILE_INDEX",
    "TILE_NAMES",
    "TILE_TYPE",
    "TILE_VALUE",
    "TYPES",
    "TYPE_NAMES",
    "UNKNOWN",
    "VISITORS_PER_PLAYER",
    "Dealer",
    "Options",
    "State",
    "View",
    "decode_move",
    "hand_points",
    "join_steps",
    "line_points",
    "make_record",
    "move_name",
    "move_seen_by",
    "new_game",
    "parse_tile",
    "perft",
    "replay",
    "sample_state",
    "state_from_json",
    "state_from_view_json",
    "tile_name",
    "totals",
    "winners",
]


def make_record(initial: State, moves, *, seed: int | str | None, names) -> dict:
    """The game record (NOTATION.md) of ``moves`` played from ``initial``; see engine.records."""
    return records.make_record(sys.modules[__name__], initial, moves, seed=seed, names=names)


def _check_deal(initial: State, seed) -> RecordError | None:
    removed = None if initial.removed_type is None else TYPES[initial.removed_type]
    dealt = new_game(initial.options, seed, removed_type=removed, first_player=initial.first_player)
    return None if dealt == initial else RecordError(code="not_seed_deal", seed=seed)


def replay(record: Any) -> list[State]:
    """Every state of a game record, deal first; RecordError(ply, reason) if it does not replay."""
    return records.replay(sys.modules[__name__], record, _check_deal)


def _is_take_step(move: str) -> bool:
    """A take step (``c5:S c4``): a position and a cell, no plant; its plant is the next ply."""
    return len(move.split(" ")) == 2 and "=" not in move


def _rank_key(entry: dict, seat: int, first_player: int, options: dict) -> tuple:
    """Higher total, then more hand points, then (``tiebreak`` ``later``) later in turn order."""
    later = 0
    if options.get("tiebreak", "later") == "later":
        later = (seat - first_player) % options.get("players", 2)
    return (entry["total"], entry["hand"], later)


GAME = GameDefinition(
    name=NAME,
    title="Topiary",
    module=sys.modules[__name__],
    seats=(2, 4),
    seats_option="players",
    rank_key=_rank_key,
    rule_options=(
        RuleOption(
            "corner_diagonals",
            gettext_noop("Corner diagonals"),
            gettext_noop("visitors may stand at the 8 one-tile corner diagonals."),
            default=True,
        ),
        RuleOption(
            "must_pick",
            gettext_noop("Must take"),
            gettext_noop("a visitor whose line holds a face-down tile must take one."),
        ),
        RuleOption(
            "draft",
            gettext_noop("Draft the hands"),
            gettext_noop("pass tiles round to choose hands."),
        ),
        RuleOption(
            "tiebreak",
            gettext_noop("Ties share the win"),
            gettext_noop("no later-in-turn tie-break."),
            default="later",
            choices=TIEBREAKS,
            field="share_ties",
        ),
    ),
    score_columns=(
        ScoreColumn("visitors", gettext_noop("Visitors")),
        ScoreColumn("bonus", gettext_noop("Bonus")),
        ScoreColumn("hand", gettext_noop("Hand")),
    ),
    words=tuple(TYPE_NAMES.values()),
    sight_lines=True,
    is_take_step=_is_take_step,
    bots=bots.PLAYERS,
    bot_ratings=bots.MEASURED_RATINGS,
    analyst=analysis.margins,
    messages=messages.MESSAGES,
)
