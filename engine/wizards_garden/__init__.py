"""Wizards' Garden (rulebook seed 002): rules, notation, records and views.

The rules are /work/shared/rules/WIZARDS_GARDEN.md; the text forms are
NOTATION.md's. The module offers the shape every game module shares (see
docs/ENGINE_API.md): ``NAME``, ``Options``, ``new_game``, ``state_from_json``,
``make_record``, ``replay``, ``State`` and ``View``.

    from engine import wizards_garden as wg
    state = wg.new_game(wg.Options(), seed=7)
    state = state.apply("b2B")
    state.legal_moves()

Board as bits: cell ``a1`` is bit 0, ``d1`` bit 3, ``a2`` bit 4, ``d4`` bit 15
(file first, then rank). A position holds two 16-bit masks, one for the seeds
showing white and one for those showing black; the 10 lines and each cell's
orthogonal neighbours are precomputed masks.

Fast path for bots and playouts: a move is also a small int, its *code*.
Bits 0-3 are the cell, bit 4 is set for a black seed, bit 5 is set when the
move must name its harvest in notation (more than one maximal set of lines to
choose from) and bits 6-15 are the harvested lines, in ``LINE_NAMES`` order.
``state.move_codes()`` gives the legal codes, ``state.apply_code(code)`` plays
one without checking it (pass only codes from ``move_codes()`` of the same
state), ``move_name(code)`` is its notation and ``state.code_of(move)`` checks a
move in notation and gives its code.

The package: ``rules`` (board, moves, ``State``, ``View``, ``new_game``), ``reading``
(``state_from_json``), ``bots`` and ``analysis`` (the greedy and strong bots, the
post-game analyst), ``messages`` (the English of every error code it raises) and
``positions`` (positions written as their rows); this module holds the records and the
descriptor ``GAME``, and every public name.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from engine import records
from engine.definition import GameDefinition, RuleOption, ScoreColumn
from engine.errors import RecordError, gettext_noop
from engine.wizards_garden import analysis, bots, messages
from engine.wizards_garden.reading import state_from_json
from engine.wizards_garden.rules import (
    BLACK,
    CELLS,
    EMPTY,
    END_REASONS,
    FILES,
    FULL_BOARD,
    LINE_MASKS,
    LINE_NAMES,
    NAME,
    NEIGHBOURS,
    OVER,
    PLAY,
    RETURNED_PER_LINE,
    SEEDS,
    SETUP,
    SETUP_SEEDS,
    WHITE,
    Options,
    State,
    View,
    move_name,
    move_seen_by,
    new_game,
    state_from_view,
)

__all__ = [
    "BLACK",
    "CELLS",
    "EMPTY",
    "END_REASONS",
    "FILES",
    "FULL_BOARD",
    "GAME",
    "LINE_MASKS",
    "LINE_NAMES",
    "NAME",
    "NEIGHBOURS",
    "OVER",
    "PLAY",
    "RETURNED_PER_LINE",
    "SEEDS",
    "SETUP",
    "SETUP_SEEDS",
    "WHITE",
    "Options",
    "State",
    "View",
    "make_record",
    "move_name",
    "move_seen_by",
    "new_game",
    "replay",
    "state_from_json",
    "state_from_view",
]


def make_record(
    initial: State, moves: Iterable[str], *, seed: int | str | None, names: Iterable[str]
) -> dict:
    """The game record (see engine.records) of ``moves`` played from ``initial``.

    Moves are recorded in canonical notation: a harvest is named only where the
    mover had a choice, its lines sorted. Raises ``IllegalMove`` for a move that
    is not legal where it is played.
    """
    canonical = []
    state = initial
    for move in moves:
        code = state.code_of(move)
        canonical.append(move_name(code))
        state = state.apply_code(code)
    return records.make_record(sys.modules[__name__], initial, canonical, seed=seed, names=names)


def _check_deal(initial: State, seed: int | str) -> RecordError | None:
    """Why ``initial`` is not a deal of ``seed``: any fresh board, first player drawn or picked."""
    if initial == new_game(initial.options, seed, initial.first_player):
        return None
    return RecordError(code="wg_not_seed_deal", seed=seed)


def replay(record: Any) -> list[State]:
    """Every state of a game record, initial position first; ``RecordError`` names the ply."""
    return records.replay(sys.modules[__name__], record, _check_deal)


# --------------------------------------------------------------------------- the game


def _rank_key(entry: dict, seat: int, first_player: int, options: dict) -> tuple:
    """More flowers, then the staff."""
    return (entry["total"], entry.get("staff", False))


GAME = GameDefinition(
    name=NAME,
    title="Wizards' Garden",
    module=sys.modules[__name__],
    seats=(2, 2),
    rank_key=_rank_key,
    rule_options=(
        RuleOption(
            "setup_apart",
            gettext_noop("Setup seeds apart"),
            gettext_noop("setup seeds may not touch."),
        ),
    ),
    # Takebacks are a casual extra (WIZARDS_GARDEN.md, Online extras).
    casual_takebacks=True,
    end_reasons=END_REASONS,
    score_columns=(
        # Dovetail and Ravenclaw are the seeds' sides.
        ScoreColumn("W", gettext_noop("Dovetail (W)")),
        ScoreColumn("B", gettext_noop("Ravenclaw (B)")),
        ScoreColumn("staff", gettext_noop("Staff"), flag=gettext_noop("Holds the staff")),
    ),
    aliases=("wizards-garden",),
    bots=bots.PLAYERS,
    bot_ratings=bots.MEASURED_RATINGS,
    analyst=analysis.values,
    move_facts=State.move_facts,
    messages=messages.MESSAGES,
)
