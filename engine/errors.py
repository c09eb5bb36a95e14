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

from typing import Any


def gettext_noop(message: str) -> str:
    """Marks an English message for the site's translation catalogue (``make messages``
    finds this name); the engine itself never translates and returns it as it is."""
    return message


#: Every code and its English message, a %-template over the error's params. ``%(move)r``
#: quotes what the player sent as Python does (``'c5:S'``). A param named ``reason`` is
#: another error's message (``inner``); ``end_reason`` and ``seats`` hold the engine's own
#: words (an end reason, ``2 to 4``), which a translation translates too.
MESSAGES: dict[str, str] = {
    # ----------------------------------------------------------------- Topiary moves
    "move_not_text": gettext_noop("malformed move %(move)r: expected a string"),
    "move_empty": gettext_noop("malformed move '': empty"),
    "keep_tile_count": gettext_noop("malformed move %(move)r: keep names exactly 3 tiles"),
    "move_not_a_tile": gettext_noop("malformed move %(move)r: %(tile)r is not a tile"),
    "keep_tile_twice": gettext_noop("malformed move %(move)r: %(tile)s named twice"),
    "plant_step_malformed": (
        gettext_noop("malformed move %(move)r: a plant step is '=' and a tile or '*', like '=R3'")
    ),
    "move_malformed": gettext_noop(
        "malformed move %(move)r: expected 'c5:S', 'c5:S c4' or 'c5:S c4=R3'"
    ),
    "move_no_such_position": (
        gettext_noop(
            "malformed move %(move)r: no such position %(position)r "
            "(an edge cell and a direction into the garden, like 'c5:S')"
        )
    ),
    "take_malformed": gettext_noop(
        "malformed move %(move)r: expected a take like 'c4', 'c4=R3' or 'c4=*'"
    ),
    "plant_not_a_tile": gettext_noop("malformed move %(move)r: %(tile)r is not a tile or '*'"),
    "not_a_take_step": gettext_noop("%(move)r: not a take step like 'c5:S c4'"),
    "not_a_plant_step": gettext_noop("%(move)r: not a plant step like '=R3' or '=*'"),
    "took_not_given": gettext_noop("%(move)r: plants the taken tile, but no taken tile is given"),
    "game_over": gettext_noop("%(move)r: the game is over"),
    "move_no_such_seat": gettext_noop("%(move)r: there is no seat %(seat)s"),
    "seat_no_visitors_left": gettext_noop("%(move)r: seat %(seat)s has no visitors left"),
    "not_your_turn": gettext_noop("%(move)r: not your turn, seat %(to_move)s is to move"),
    "nothing_to_plant": gettext_noop("%(move)r: nothing to plant, no take is pending"),
    "draft_expects_keep": gettext_noop("%(move)r: the draft is on, expected 'keep' and 3 tiles"),
    "keep_tile_not_held": (
        gettext_noop("%(move)r: %(tile)s is not in your hand or among the tiles passed to you")
    ),
    "draft_over": gettext_noop("%(move)r: the draft is over, place a visitor"),
    "position_not_in_play": gettext_noop(
        "%(move)r: position %(position)s is not in play (corner_diagonals)"
    ),
    "position_occupied": gettext_noop("%(move)r: position %(position)s is occupied"),
    "must_take": (
        gettext_noop(
            "%(move)r: must take (must_pick): the line from %(position)s holds a face-down tile"
        )
    ),
    "cell_not_in_line": gettext_noop(
        "%(move)r: cell %(cell)s is not in the sight line of %(position)s"
    ),
    "cell_face_up": gettext_noop(
        "%(move)r: cell %(cell)s is face up, only face-down tiles can be taken"
    ),
    "plant_tile_not_in_hand": (
        gettext_noop("%(move)r: %(tile)s is not in your hand (use '*' to plant the tile you take)")
    ),
    "plant_first": (
        gettext_noop(
            "%(move)r: plant a tile from your hand in %(cell)s first (the take %(position)s "
            "%(cell)s is pending): '=*' or '=' and a tile"
        )
    ),
    "tile_not_in_hand": gettext_noop("%(move)r: %(tile)s is not in your hand"),
    "no_such_seat": gettext_noop("there is no seat %(seat)r"),
    "bot_seat_not_to_move": gettext_noop("seat %(seat)s is not to move"),
    # ----------------------------------------------------------------- Topiary positions
    "not_a_tile": gettext_noop(
        "%(field)s: %(value)r is not a tile (a type letter of %(types)s and 1-5)"
    ),
    "unknown_in_full_position": (
        gettext_noop("%(field)s: '?' in a full position; every identity must be known")
    ),
    "not_a_garden_cell": (
        gettext_noop(
            "%(field)s: %(value)r is not a garden cell ('R3' face up, 'r3' face down, '.' the gap "
            "of a pending take)"
        )
    ),
    "not_a_seat": gettext_noop("%(field)s: %(value)r is not a seat 0..%(last)s"),
    "tiles_not_list": gettext_noop("%(field)s: expected a list of tiles, got %(value)r"),
    "tiles_count": gettext_noop("%(field)s: expected %(length)s tiles, got %(count)s"),
    "tile_twice": gettext_noop("%(field)s: %(tile)s is also in %(other)s"),
    "tile_of_removed_type": gettext_noop("%(field)s: %(tile)s is of the removed type %(type)s"),
    "position_not_object": gettext_noop("position: expected a JSON object"),
    "position_unknown_field": gettext_noop("position: unknown field %(field)r"),
    "position_missing_field": gettext_noop("position: missing field %(field)r"),
    "wrong_game": gettext_noop("game: %(game)r, expected %(expected)r"),
    "position_missing_removed_type": (
        gettext_noop(
            "position: missing field 'removed_type' (one type is removed with %(players)s players)"
        )
    ),
    "removed_type_with_four": gettext_noop("removed_type: no type is removed with 4 players"),
    "removed_type_not_null": gettext_noop("removed_type: must be null with 4 players"),
    "removed_type_not_type": gettext_noop(
        "removed_type: %(value)r is not a type letter of %(types)s"
    ),
    "removed_type_invalid": (
        gettext_noop(
            "removed_type: %(value)r is not a type letter of %(types)s "
            "(one type is removed with %(players)s players)"
        )
    ),
    "garden_shape": gettext_noop("garden: expected 5 rows of 5 cells, rank 5 first"),
    "centre_face_down": gettext_noop("garden c3: the centre tile is always face up"),
    "visitors_not_object": gettext_noop('visitors: expected an object like {"c5:S": 0}'),
    "visitors_no_such_position": gettext_noop("visitors: no such position %(position)r"),
    "visitors_not_in_play": gettext_noop(
        "visitors: %(position)s is not in play (corner_diagonals)"
    ),
    "visitors_in_draft": gettext_noop("visitors: placed during the draft"),
    "unplaced_not_list": gettext_noop("unplaced: expected a list of %(players)s counts"),
    "unplaced_count": gettext_noop("unplaced[%(seat)s]: %(count)r is not 0..%(quota)s"),
    "unplaced_sum": (
        gettext_noop(
            "unplaced[%(seat)s]: seat %(seat)s has %(placed)s visitors placed and %(count)s "
            "unplaced, not %(quota)s"
        )
    ),
    "phase_unknown": gettext_noop("phase: %(phase)r is not 'draft', 'play' or 'over'"),
    "over_with_unplaced": gettext_noop("phase: 'over' but visitors are still unplaced"),
    "all_placed_not_over": gettext_noop("phase: %(phase)r but every visitor is placed"),
    "to_move_no_visitors": gettext_noop("to_move: seat %(seat)s has no visitors left"),
    "hands_count": gettext_noop("hands: expected %(players)s hands"),
    "box_mismatch": (
        gettext_noop(
            "box: does not hold exactly the tiles that are nowhere else (expected %(box)s)"
        )
    ),
    "box_with_unknowns": (
        gettext_noop(
            "box: a position with '?' cannot also list the box (it is what nobody has seen)"
        )
    ),
    "too_many_unknowns": gettext_noop("position: more '?' than tiles nobody has seen"),
    "pending_outside_play": gettext_noop("pending: a take pending in phase %(phase)r"),
    "pending_not_object": gettext_noop(
        'pending: expected {"position": "c5:S", "cell": "c4", "took": "N2"}'
    ),
    "pending_no_such_position": gettext_noop("pending.position: no such position %(position)r"),
    "pending_not_in_play": gettext_noop("pending.position: %(position)s is not in play"),
    "pending_visitor_not_movers": (
        gettext_noop(
            "pending.position: the visitor at %(position)s must be the mover's (seat %(seat)s)"
        )
    ),
    "pending_cell_not_in_line": (
        gettext_noop("pending.cell: %(cell)r is not a cell of the sight line of %(position)s")
    ),
    "pending_gap_elsewhere": (
        gettext_noop(
            "garden: the pending take's cell %(cell)s must be the only gap ('.'), found %(gaps)s"
        )
    ),
    "pending_gap_missing": (
        gettext_noop(
            "garden: the pending take's cell %(cell)s must be the only gap ('.'), found none"
        )
    ),
    "gap_without_pending": gettext_noop("garden %(cell)s: '.' (a gap) but no take is pending"),
    "pending_took_not_in_hand": gettext_noop(
        "pending.took: %(tile)s is not in the hand of seat %(seat)s"
    ),
    "pending_took_hand_unknown": gettext_noop(
        "pending.took: '?' but the mover's hand is not listed"
    ),
    "draft_not_object": gettext_noop('draft: expected {"received": [...], "passed_on": [...]}'),
    "draft_entries": gettext_noop(
        "draft.%(key)s: expected one entry (a tile list or null) per seat"
    ),
    "draft_nothing_received": (
        gettext_noop("draft.received[%(seat)s]: the seat to move has been passed nothing")
    ),
    "draft_without_option": gettext_noop("draft: present but the draft option is off"),
    "draft_phase_without_option": gettext_noop("phase: 'draft' but the draft option is off"),
    # ----------------------------------------------------------------- Topiary options
    "options_not_object": gettext_noop("options: expected an object, got %(value)r"),
    "options_unknown": gettext_noop("options: unknown option %(option)r"),
    "options_not_options": gettext_noop("options: expected topiary.Options, got %(value)r"),
    "option_players": gettext_noop("options.players: %(value)r is not 2, 3 or 4"),
    "option_not_bool": gettext_noop("options.%(option)s: %(value)r is not true/false"),
    "option_tiebreak": gettext_noop("options.tiebreak: %(value)r is not 'later' or 'share'"),
    "not_seed_deal": gettext_noop("not the deal of seed %(seed)r"),
    # ----------------------------------------------------------------- Wizards' Garden moves
    "wg_move_not_text": gettext_noop("a move is text like 'b2B', got %(move)r"),
    "wg_game_over": gettext_noop("the game is over: %(end_reason)s"),
    "wg_not_your_turn": gettext_noop("not your turn: seat %(to_move)s is to move"),
    "wg_move_malformed": (
        gettext_noop(
            "malformed move %(move)r: expected a cell a1-d4 and a side W or B, like 'b2B', and "
            "'/' with the lines when naming a harvest, like 'b2B/a1-d4'"
        )
    ),
    "cell_occupied": gettext_noop("%(cell)s is occupied"),
    "setup_names_lines": gettext_noop(
        "%(move)s: a setup placement harvests nothing, so it names no lines"
    ),
    "setup_apart_adjacent": gettext_noop(
        "%(cell)s is next to a seed: setup_apart keeps setup seeds apart"
    ),
    "setup_completes_line": (
        gettext_noop(
            "%(move)s would complete %(line)s as four %(side)s seeds, which a setup placement "
            "may not do"
        )
    ),
    "not_next_to_seed": gettext_noop(
        "%(cell)s is not next to a seed: plant orthogonally adjacent to a seed"
    ),
    "harvest_choice_needed": gettext_noop(
        "%(move)s makes harvests that share seeds: name one of %(choices)s"
    ),
    "harvests_nothing": gettext_noop("%(move)s harvests nothing: drop '/%(lines)s'"),
    "unknown_line": (
        gettext_noop(
            "%(move)s: unknown line %(line)r; lines are named by their end cells: %(lines)s"
        )
    ),
    "line_named_twice": gettext_noop("%(move)s: line %(line)s is named twice"),
    "line_not_harvest": (
        gettext_noop("%(line)s is not a harvest after %(move)s: it is not four seeds of one colour")
    ),
    "harvest_lines_overlap": (
        gettext_noop("%(line)s and %(other)s share %(cell)s: only one of them may be harvested")
    ),
    "harvest_incomplete": (
        gettext_noop(
            "%(move)s must also harvest %(line)s, which shares no seed with the lines named"
        )
    ),
    "wg_no_such_seat": gettext_noop("no seat %(seat)r: the seats are 0 and 1"),
    # ----------------------------------------------------------------- Wizards' Garden positions
    "wg_options_not_object": gettext_noop("field 'options' must be an object, got %(value)r"),
    "wg_unknown_option": gettext_noop(
        "unknown option %(option)r: the Wizards' Garden option is setup_apart"
    ),
    "wg_setup_apart_not_bool": gettext_noop(
        "option 'setup_apart' must be true or false, got %(value)r"
    ),
    "wg_first_player": gettext_noop("first_player must be 0 or 1, got %(value)r"),
    "wg_field_number": gettext_noop(
        "field %(field)r must be a whole number %(low)s-%(high)s, got %(value)r"
    ),
    "wg_board_shape": gettext_noop("field 'board' must be 4 rows of 4 cells, rank 4 first"),
    "wg_board_row": gettext_noop("board row %(row)s (rank %(rank)s) must be a list of 4 cells"),
    "wg_board_cell": gettext_noop("board cell %(cell)s: expected 'W', 'B' or '.', got %(value)r"),
    "wg_harvested_shape": gettext_noop(
        "field 'harvested' must list 2 seats' flowers, like {'W': 0, 'B': 0}"
    ),
    "wg_harvested_seat": gettext_noop(
        "harvested[%(seat)s] must be an object with counts 'W' and 'B'"
    ),
    "wg_harvested_count": (
        gettext_noop(
            "harvested[%(seat)s].%(side)s must be a whole number 0-%(seeds)s, got %(value)r"
        )
    ),
    "wg_position_not_object": gettext_noop("a Wizards' Garden position must be a JSON object"),
    "wg_position_missing_field": gettext_noop("position is missing field %(field)r"),
    "wg_position_unknown_field": gettext_noop(
        "unknown field %(field)r in a Wizards' Garden position"
    ),
    "wg_wrong_game": gettext_noop("field 'game' must be %(expected)r, got %(game)r"),
    "wg_staff_value": gettext_noop("field 'staff' must be null, 0 or 1, got %(value)r"),
    "wg_phase_unknown": gettext_noop(
        "field 'phase' must be 'setup', 'play' or 'over', got %(value)r"
    ),
    "wg_seed_count": (
        gettext_noop(
            "seeds must add up to %(seeds)s: board %(board)s + basket %(basket)s + flowers "
            "%(flowers)s = %(total)s"
        )
    ),
    "wg_staff_missing": (
        gettext_noop(
            "field 'staff' is null, but a black line was harvested: its harvester holds the staff"
        )
    ),
    "wg_staff_without_flower": (
        gettext_noop("field 'staff': seat %(seat)s holds the staff without a black flower")
    ),
    "wg_unharvested_line": (
        gettext_noop(
            "board: line %(line)s is four seeds of one colour, which the rules would have harvested"
        )
    ),
    "wg_setup_with_flowers": gettext_noop("phase 'setup', but flowers have been harvested"),
    "wg_setup_seed_count": gettext_noop(
        "phase 'setup' with %(count)s seeds on the board: setup places 4"
    ),
    "wg_setup_apart_position": gettext_noop(
        "board cell %(cell)s: setup_apart keeps setup seeds apart"
    ),
    "wg_setup_unfinished": (
        gettext_noop(
            "phase %(phase)r with %(count)s seeds on the board and no harvest yet: setup places 4"
        )
    ),
    "wg_play_but_over": gettext_noop("phase 'play', but the game is over: %(end_reason)s"),
    "wg_over_but_can_plant": gettext_noop("phase 'over', but seat %(seat)s can still plant"),
    "wg_not_seed_deal": (
        gettext_noop(
            "not the deal of seed %(seed)r: a deal is an empty board with 20 seeds in the basket"
        )
    ),
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
