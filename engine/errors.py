"""The one family of exceptions the engine raises for bad input.

Every message is meant for a person: it names the move, field, cell or ply that is
wrong and why, so callers can show it as it is. The engine speaks English only; each
error also carries a stable ``code`` (a key of ``MESSAGES``) and its ``params`` (the
move, cell, tile, seat, field ... as plain values), from which a caller can say the
same in another language (the site's ``games.engine_text``)::

    raise IllegalMove(code="position_occupied", move="c5:S", position="c5:S")
    # str(error) == "'c5:S': position c5:S is occupied"

A game defined outside the engine may still raise ``IllegalMove("some text")``: such an
error has no code and is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks an English message for the site's translation catalogue (``make messages``
    finds this name); the engine itself never translates and returns it as it is."""
    return message


#: Every code and its English message, a %-template over the error's params. ``%(move)r``
#: quotes what the player sent as Python does (``'c5:S'``). A param named ``reason`` is
#: another error's message (``inner``); ``end_reason`` holds the engine's own words (an end
#: reason), which a translation translates too. The codes below
#: are shared by every game; each game's own (its moves, positions, options) come with its
#: descriptor (``GameDefinition.messages``, ``engine/<game>/messages.py``), added here by
#: ``add_messages`` when the game is defined.
MESSAGES: dict[str, str] = {
    # ----------------------------------------------------------------- records
    "at_ply": gettext_noop("ply %(ply)s: %(reason)s"),
    "record_not_object": gettext_noop("record: expected a JSON object"),
    "record_without_game": gettext_noop('record: expected a JSON object with a "game" field'),
    "record_unknown_field": gettext_noop("record: unknown field %(field)r"),
    "record_missing_field": gettext_noop("record: missing field %(field)r"),
    "record_initial": gettext_noop("initial: %(reason)s"),
    "record_options_differ": gettext_noop("options: differ from the deal's options"),
    "record_players": gettext_noop("players: expected %(seats)s seat names"),
    "record_names_count": gettext_noop("players: %(names)s names for %(players)s seats"),
    "record_first_player": (
        gettext_noop("first_player: %(value)r, but the initial position says %(initial)s")
    ),
    "record_seed_type": gettext_noop("seed: %(seed)r is not an integer, a string or null"),
    "record_seed_type_none": gettext_noop("seed: %(seed)r is not an integer, a string or None"),
    "record_moves_not_list": gettext_noop("moves: expected a list"),
    "record_scores_differ": gettext_noop(
        "scores: the record says %(recorded)r but the moves give %(final)r"
    ),
    "record_entry_malformed": gettext_noop(
        'expected a move or {"move": ..., "took": ...}, got %(entry)r'
    ),
    "record_entry_unknown_field": gettext_noop("unknown field %(field)r"),
    "record_take_step": (
        gettext_noop("%(move)r is a take step; a record holds finished moves like '%(move)s=*'")
    ),
    "record_took_nothing": gettext_noop("%(move)r takes nothing, the record says it took %(took)r"),
    "record_took_differs": gettext_noop("%(move)r takes %(took)s, the record says %(recorded)r"),
    "record_take_unplanted": (
        gettext_noop("%(move)r: the take is not planted, the record would end mid-turn")
    ),
    # ----------------------------------------------------------------- puzzles
    "puzzle_not_topiary": gettext_noop("expected a topiary position, got %(type)s"),
    "puzzle_not_in_play": gettext_noop("phase: %(phase)r; a puzzle is a position in play"),
    "puzzle_others_unplaced": (
        gettext_noop(
            "unplaced: seat %(seat)s still has visitors; in a puzzle only the seat to move "
            "(seat %(mover)s) has any left"
        )
    ),
    "puzzle_moves_not_list": gettext_noop(
        "moves: expected a list of moves in notation, like ['c5:S c4=R3']"
    ),
    "puzzle_moves_count": gettext_noop(
        "moves: the puzzle needs exactly %(needed)s moves, got %(count)s"
    ),
    "puzzle_move_illegal": gettext_noop("move %(ply)s: %(reason)s"),
    "puzzle_date": gettext_noop("date: %(date)r is not an ISO date like 2026-11-22"),
    # ----------------------------------------------------------------- games and tables
    "unknown_game": gettext_noop("unknown game %(game)r: expected %(expected)s"),
    "players_not_for_game": gettext_noop("%(game)s is for %(seats)s players"),
    "bot_seat_not_to_move": gettext_noop("seat %(seat)s is not to move"),
    "position_not_object": gettext_noop("position: expected a JSON object"),
    "wrong_game": gettext_noop("game: %(game)r, expected %(expected)r"),
    # ----------------------------------------------------------------- the command line
    "cli_every_hand_unknown": gettext_noop(
        "hands[%(seat)s]: unknown ('?'), but every hand is needed"
    ),
    "cli_mover_hand_unknown": gettext_noop(
        "hands[%(seat)s]: unknown ('?'), but the mover's hand is needed"
    ),
    "cli_not_utf8": gettext_noop("%(source)s: not UTF-8 text"),
    "cli_invalid_json": (
        gettext_noop("%(source)s: invalid JSON at line %(line)s column %(column)s: %(detail)s")
    ),
}


def add_messages(messages: Mapping[str, str]) -> None:
    """Add a game's codes to ``MESSAGES``; a code already known must keep its message."""
    clashing = [code for code, text in messages.items() if MESSAGES.get(code, text) != text]
    if clashing:
        raise ValueError(f"error code {clashing[0]!r} already says something else")
    MESSAGES.update(messages)


class EngineError(ValueError):
    """Base class: bad input of any kind.

    ``EngineError(code=..., **params)`` says ``MESSAGES[code] % params``;
    ``inner`` is the error this one wraps (its message is the ``reason`` param).
    ``message`` is the English without a record's ply (``RecordError``).
    """

    def __init__(
        self, message: str = "", *, code: str = "", inner: EngineError | None = None, **params
    ):
        if inner is not None:
            params["reason"] = str(inner)
        self.message = message or MESSAGES[code] % params
        self.code = code
        self.params: dict[str, Any] = params
        self.inner = inner
        super().__init__(self._text())

    def _text(self) -> str:
        return self.message


class IllegalMove(EngineError):
    """A move that the rules do not allow in this state."""


class NotationError(EngineError):
    """Text or JSON that does not follow NOTATION.md."""


class RecordError(EngineError):
    """A game record that does not replay; ``ply`` is the 1-based ply at fault (0: the header)."""

    def __init__(self, message: str = "", ply: int = 0, **kwargs):
        self.ply = ply
        super().__init__(message, **kwargs)

    def _text(self) -> str:
        if not self.ply:
            return self.message
        return MESSAGES["at_ply"] % {"ply": self.ply, "reason": self.message}

    @classmethod
    def at_ply(cls, error: EngineError, ply: int) -> RecordError:
        """``error`` (a move that does not replay, say) as the record's fault at ``ply``:
        its code and params, the ply in front."""
        return cls(error.message, ply, code=error.code, inner=error.inner, **error.params)
