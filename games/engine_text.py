"""The engine's words in the site's language (docs/I18N.md, docs/ENGINE_API.md "Errors").

The engine speaks English only. Its errors carry a stable code and params
(``engine.errors``): ``error_message`` says an error in the active language from
``MESSAGES``, the same templates as ``engine.errors.MESSAGES`` marked for translation
(a test keeps the two alike). ``ENGINE_TEXTS`` lists every other English text the
engine hands the site to show (tile type names, rule options, score columns, end
reasons, seat counts) so that the catalogue holds them: templates say
``{% translate value %}``, Python ``gettext(value)``, and a page script looks them up
in ``engine_texts_for_js()`` (a frame sent to many viewers at once carries the
engine's English, e.g. ``final.end_reason``).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, gettext_noop

from engine.errors import EngineError, RecordError

#: Each error code's message, a %-template over the error's params (as in engine.errors).
MESSAGES = {
    # ----------------------------------------------------------------- Topiary moves
    "move_not_text": gettext_lazy("malformed move %(move)r: expected a string"),
    "move_empty": gettext_lazy("malformed move '': empty"),
    "keep_tile_count": gettext_lazy("malformed move %(move)r: keep names exactly 3 tiles"),
    "move_not_a_tile": gettext_lazy("malformed move %(move)r: %(tile)r is not a tile"),
    "keep_tile_twice": gettext_lazy("malformed move %(move)r: %(tile)s named twice"),
    "plant_step_malformed": gettext_lazy(
        "malformed move %(move)r: a plant step is '=' and a tile or '*', like '=R3'"
    ),
    "move_malformed": gettext_lazy(
        "malformed move %(move)r: expected 'c5:S', 'c5:S c4' or 'c5:S c4=R3'"
    ),
    "move_no_such_position": gettext_lazy(
        "malformed move %(move)r: no such position %(position)r (an edge cell and a "
        "direction into the garden, like 'c5:S')"
    ),
    "take_malformed": gettext_lazy(
        "malformed move %(move)r: expected a take like 'c4', 'c4=R3' or 'c4=*'"
    ),
    "plant_not_a_tile": gettext_lazy("malformed move %(move)r: %(tile)r is not a tile or '*'"),
    "not_a_take_step": gettext_lazy("%(move)r: not a take step like 'c5:S c4'"),
    "not_a_plant_step": gettext_lazy("%(move)r: not a plant step like '=R3' or '=*'"),
    "took_not_given": gettext_lazy("%(move)r: plants the taken tile, but no taken tile is given"),
    "game_over": gettext_lazy("%(move)r: the game is over"),
    "move_no_such_seat": gettext_lazy("%(move)r: there is no seat %(seat)s"),
    "seat_no_visitors_left": gettext_lazy("%(move)r: seat %(seat)s has no visitors left"),
    "not_your_turn": gettext_lazy("%(move)r: not your turn, seat %(to_move)s is to move"),
    "nothing_to_plant": gettext_lazy("%(move)r: nothing to plant, no take is pending"),
    "draft_expects_keep": gettext_lazy("%(move)r: the draft is on, expected 'keep' and 3 tiles"),
    "keep_tile_not_held": gettext_lazy(
        "%(move)r: %(tile)s is not in your hand or among the tiles passed to you"
    ),
    "draft_over": gettext_lazy("%(move)r: the draft is over, place a visitor"),
    "position_not_in_play": gettext_lazy(
        "%(move)r: position %(position)s is not in play (corner_diagonals)"
    ),
    "position_occupied": gettext_lazy("%(move)r: position %(position)s is occupied"),
    "must_take": gettext_lazy(
        "%(move)r: must take (must_pick): the line from %(position)s holds a face-down tile"
    ),
    "cell_not_in_line": gettext_lazy(
        "%(move)r: cell %(cell)s is not in the sight line of %(position)s"
    ),
    "cell_face_up": gettext_lazy(
        "%(move)r: cell %(cell)s is face up, only face-down tiles can be taken"
    ),
    "plant_tile_not_in_hand": gettext_lazy(
        "%(move)r: %(tile)s is not in your hand (use '*' to plant the tile you take)"
    ),
    "plant_first": gettext_lazy(
        "%(move)r: plant a tile from your hand in %(cell)s first (the take %(position)s "
        "%(cell)s is pending): '=*' or '=' and a tile"
    ),
    "tile_not_in_hand": gettext_lazy("%(move)r: %(tile)s is not in your hand"),
    "no_such_seat": gettext_lazy("there is no seat %(seat)r"),
    "bot_seat_not_to_move": gettext_lazy("seat %(seat)s is not to move"),
    # ----------------------------------------------------------------- Topiary positions
    "not_a_tile": gettext_lazy(
        "%(field)s: %(value)r is not a tile (a type letter of %(types)s and 1-5)"
    ),
    "unknown_in_full_position": gettext_lazy(
        "%(field)s: '?' in a full position; every identity must be known"
    ),
    "not_a_garden_cell": gettext_lazy(
        "%(field)s: %(value)r is not a garden cell ('R3' face up, 'r3' face down, '.' the "
        "gap of a pending take)"
    ),
    "not_a_seat": gettext_lazy("%(field)s: %(value)r is not a seat 0..%(last)s"),
    "tiles_not_list": gettext_lazy("%(field)s: expected a list of tiles, got %(value)r"),
    "tiles_count": gettext_lazy("%(field)s: expected %(length)s tiles, got %(count)s"),
    "tile_twice": gettext_lazy("%(field)s: %(tile)s is also in %(other)s"),
    "tile_of_removed_type": gettext_lazy("%(field)s: %(tile)s is of the removed type %(type)s"),
    "position_not_object": gettext_lazy("position: expected a JSON object"),
    "position_unknown_field": gettext_lazy("position: unknown field %(field)r"),
    "position_missing_field": gettext_lazy("position: missing field %(field)r"),
    "wrong_game": gettext_lazy("game: %(game)r, expected %(expected)r"),
    "position_missing_removed_type": gettext_lazy(
        "position: missing field 'removed_type' (one type is removed with %(players)s players)"
    ),
    "removed_type_with_four": gettext_lazy("removed_type: no type is removed with 4 players"),
    "removed_type_not_null": gettext_lazy("removed_type: must be null with 4 players"),
    "removed_type_not_type": gettext_lazy(
        "removed_type: %(value)r is not a type letter of %(types)s"
    ),
    "removed_type_invalid": gettext_lazy(
        "removed_type: %(value)r is not a type letter of %(types)s (one type is removed with "
        "%(players)s players)"
    ),
    "garden_shape": gettext_lazy("garden: expected 5 rows of 5 cells, rank 5 first"),
    "centre_face_down": gettext_lazy("garden c3: the centre tile is always face up"),
    "visitors_not_object": gettext_lazy('visitors: expected an object like {"c5:S": 0}'),
    "visitors_no_such_position": gettext_lazy("visitors: no such position %(position)r"),
    "visitors_not_in_play": gettext_lazy(
        "visitors: %(position)s is not in play (corner_diagonals)"
    ),
    "visitors_in_draft": gettext_lazy("visitors: placed during the draft"),
    "unplaced_not_list": gettext_lazy("unplaced: expected a list of %(players)s counts"),
    "unplaced_count": gettext_lazy("unplaced[%(seat)s]: %(count)r is not 0..%(quota)s"),
    "unplaced_sum": gettext_lazy(
        "unplaced[%(seat)s]: seat %(seat)s has %(placed)s visitors placed and %(count)s "
        "unplaced, not %(quota)s"
    ),
    "phase_unknown": gettext_lazy("phase: %(phase)r is not 'draft', 'play' or 'over'"),
    "over_with_unplaced": gettext_lazy("phase: 'over' but visitors are still unplaced"),
    "all_placed_not_over": gettext_lazy("phase: %(phase)r but every visitor is placed"),
    "to_move_no_visitors": gettext_lazy("to_move: seat %(seat)s has no visitors left"),
    "hands_count": gettext_lazy("hands: expected %(players)s hands"),
    "box_mismatch": gettext_lazy(
        "box: does not hold exactly the tiles that are nowhere else (expected %(box)s)"
    ),
    "box_with_unknowns": gettext_lazy(
        "box: a position with '?' cannot also list the box (it is what nobody has seen)"
    ),
    "too_many_unknowns": gettext_lazy("position: more '?' than tiles nobody has seen"),
    "pending_outside_play": gettext_lazy("pending: a take pending in phase %(phase)r"),
    "pending_not_object": gettext_lazy(
        'pending: expected {"position": "c5:S", "cell": "c4", "took": "N2"}'
    ),
    "pending_no_such_position": gettext_lazy("pending.position: no such position %(position)r"),
    "pending_not_in_play": gettext_lazy("pending.position: %(position)s is not in play"),
    "pending_visitor_not_movers": gettext_lazy(
        "pending.position: the visitor at %(position)s must be the mover's (seat %(seat)s)"
    ),
    "pending_cell_not_in_line": gettext_lazy(
        "pending.cell: %(cell)r is not a cell of the sight line of %(position)s"
    ),
    "pending_gap_elsewhere": gettext_lazy(
        "garden: the pending take's cell %(cell)s must be the only gap ('.'), found %(gaps)s"
    ),
    "pending_gap_missing": gettext_lazy(
        "garden: the pending take's cell %(cell)s must be the only gap ('.'), found none"
    ),
    "gap_without_pending": gettext_lazy("garden %(cell)s: '.' (a gap) but no take is pending"),
    "pending_took_not_in_hand": gettext_lazy(
        "pending.took: %(tile)s is not in the hand of seat %(seat)s"
    ),
    "pending_took_hand_unknown": gettext_lazy(
        "pending.took: '?' but the mover's hand is not listed"
    ),
    "draft_not_object": gettext_lazy('draft: expected {"received": [...], "passed_on": [...]}'),
    "draft_entries": gettext_lazy(
        "draft.%(key)s: expected one entry (a tile list or null) per seat"
    ),
    "draft_nothing_received": gettext_lazy(
        "draft.received[%(seat)s]: the seat to move has been passed nothing"
    ),
    "draft_without_option": gettext_lazy("draft: present but the draft option is off"),
    "draft_phase_without_option": gettext_lazy("phase: 'draft' but the draft option is off"),
    # ----------------------------------------------------------------- Topiary options
    "options_not_object": gettext_lazy("options: expected an object, got %(value)r"),
    "options_unknown": gettext_lazy("options: unknown option %(option)r"),
    "options_not_options": gettext_lazy("options: expected topiary.Options, got %(value)r"),
    "option_players": gettext_lazy("options.players: %(value)r is not 2, 3 or 4"),
    "option_not_bool": gettext_lazy("options.%(option)s: %(value)r is not true/false"),
    "option_tiebreak": gettext_lazy("options.tiebreak: %(value)r is not 'later' or 'share'"),
    "not_seed_deal": gettext_lazy("not the deal of seed %(seed)r"),
    # ----------------------------------------------------------------- Wizards' Garden moves
    "wg_move_not_text": gettext_lazy("a move is text like 'b2B', got %(move)r"),
    "wg_game_over": gettext_lazy("the game is over: %(end_reason)s"),
    "wg_not_your_turn": gettext_lazy("not your turn: seat %(to_move)s is to move"),
    "wg_move_malformed": gettext_lazy(
        "malformed move %(move)r: expected a cell a1-d4 and a side W or B, like 'b2B', and "
        "'/' with the lines when naming a harvest, like 'b2B/a1-d4'"
    ),
    "cell_occupied": gettext_lazy("%(cell)s is occupied"),
    "setup_names_lines": gettext_lazy(
        "%(move)s: a setup placement harvests nothing, so it names no lines"
    ),
    "setup_apart_adjacent": gettext_lazy(
        "%(cell)s is next to a seed: setup_apart keeps setup seeds apart"
    ),
    "setup_completes_line": gettext_lazy(
        "%(move)s would complete %(line)s as four %(side)s seeds, which a setup placement "
        "may not do"
    ),
    "not_next_to_seed": gettext_lazy(
        "%(cell)s is not next to a seed: plant orthogonally adjacent to a seed"
    ),
    "harvest_choice_needed": gettext_lazy(
        "%(move)s makes harvests that share seeds: name one of %(choices)s"
    ),
    "harvests_nothing": gettext_lazy("%(move)s harvests nothing: drop '/%(lines)s'"),
    "unknown_line": gettext_lazy(
        "%(move)s: unknown line %(line)r; lines are named by their end cells: %(lines)s"
    ),
    "line_named_twice": gettext_lazy("%(move)s: line %(line)s is named twice"),
    "line_not_harvest": gettext_lazy(
        "%(line)s is not a harvest after %(move)s: it is not four seeds of one colour"
    ),
    "harvest_lines_overlap": gettext_lazy(
        "%(line)s and %(other)s share %(cell)s: only one of them may be harvested"
    ),
    "harvest_incomplete": gettext_lazy(
        "%(move)s must also harvest %(line)s, which shares no seed with the lines named"
    ),
    "wg_no_such_seat": gettext_lazy("no seat %(seat)r: the seats are 0 and 1"),
    # ----------------------------------------------------------------- Wizards' Garden positions
    "wg_options_not_object": gettext_lazy("field 'options' must be an object, got %(value)r"),
    "wg_unknown_option": gettext_lazy(
        "unknown option %(option)r: the Wizards' Garden option is setup_apart"
    ),
    "wg_setup_apart_not_bool": gettext_lazy(
        "option 'setup_apart' must be true or false, got %(value)r"
    ),
    "wg_first_player": gettext_lazy("first_player must be 0 or 1, got %(value)r"),
    "wg_field_number": gettext_lazy(
        "field %(field)r must be a whole number %(low)s-%(high)s, got %(value)r"
    ),
    "wg_board_shape": gettext_lazy("field 'board' must be 4 rows of 4 cells, rank 4 first"),
    "wg_board_row": gettext_lazy("board row %(row)s (rank %(rank)s) must be a list of 4 cells"),
    "wg_board_cell": gettext_lazy("board cell %(cell)s: expected 'W', 'B' or '.', got %(value)r"),
    "wg_harvested_shape": gettext_lazy(
        "field 'harvested' must list 2 seats' flowers, like {'W': 0, 'B': 0}"
    ),
    "wg_harvested_seat": gettext_lazy(
        "harvested[%(seat)s] must be an object with counts 'W' and 'B'"
    ),
    "wg_harvested_count": gettext_lazy(
        "harvested[%(seat)s].%(side)s must be a whole number 0-%(seeds)s, got %(value)r"
    ),
    "wg_position_not_object": gettext_lazy("a Wizards' Garden position must be a JSON object"),
    "wg_position_missing_field": gettext_lazy("position is missing field %(field)r"),
    "wg_position_unknown_field": gettext_lazy(
        "unknown field %(field)r in a Wizards' Garden position"
    ),
    "wg_wrong_game": gettext_lazy("field 'game' must be %(expected)r, got %(game)r"),
    "wg_staff_value": gettext_lazy("field 'staff' must be null, 0 or 1, got %(value)r"),
    "wg_phase_unknown": gettext_lazy(
        "field 'phase' must be 'setup', 'play' or 'over', got %(value)r"
    ),
    "wg_seed_count": gettext_lazy(
        "seeds must add up to %(seeds)s: board %(board)s + basket %(basket)s + flowers "
        "%(flowers)s = %(total)s"
    ),
    "wg_staff_missing": gettext_lazy(
        "field 'staff' is null, but a black line was harvested: its harvester holds the staff"
    ),
    "wg_staff_without_flower": gettext_lazy(
        "field 'staff': seat %(seat)s holds the staff without a black flower"
    ),
    "wg_unharvested_line": gettext_lazy(
        "board: line %(line)s is four seeds of one colour, which the rules would have harvested"
    ),
    "wg_setup_with_flowers": gettext_lazy("phase 'setup', but flowers have been harvested"),
    "wg_setup_seed_count": gettext_lazy(
        "phase 'setup' with %(count)s seeds on the board: setup places 4"
    ),
    "wg_setup_apart_position": gettext_lazy(
        "board cell %(cell)s: setup_apart keeps setup seeds apart"
    ),
    "wg_setup_unfinished": gettext_lazy(
        "phase %(phase)r with %(count)s seeds on the board and no harvest yet: setup places 4"
    ),
    "wg_play_but_over": gettext_lazy("phase 'play', but the game is over: %(end_reason)s"),
    "wg_over_but_can_plant": gettext_lazy("phase 'over', but seat %(seat)s can still plant"),
    "wg_not_seed_deal": gettext_lazy(
        "not the deal of seed %(seed)r: a deal is an empty board with 20 seeds in the basket"
    ),
    # ----------------------------------------------------------------- records
    "at_ply": gettext_lazy("ply %(ply)s: %(reason)s"),
    "record_not_object": gettext_lazy("record: expected a JSON object"),
    "record_without_game": gettext_lazy('record: expected a JSON object with a "game" field'),
    "record_unknown_field": gettext_lazy("record: unknown field %(field)r"),
    "record_missing_field": gettext_lazy("record: missing field %(field)r"),
    "record_initial": gettext_lazy("initial: %(reason)s"),
    "record_options_differ": gettext_lazy("options: differ from the deal's options"),
    "record_players": gettext_lazy("players: expected %(seats)s seat names"),
    "record_names_count": gettext_lazy("players: %(names)s names for %(players)s seats"),
    "record_first_player": gettext_lazy(
        "first_player: %(value)r, but the initial position says %(initial)s"
    ),
    "record_seed_type": gettext_lazy("seed: %(seed)r is not an integer, a string or null"),
    "record_seed_type_none": gettext_lazy("seed: %(seed)r is not an integer, a string or None"),
    "record_moves_not_list": gettext_lazy("moves: expected a list"),
    "record_scores_differ": gettext_lazy(
        "scores: the record says %(recorded)r but the moves give %(final)r"
    ),
    "record_entry_malformed": gettext_lazy(
        'expected a move or {"move": ..., "took": ...}, got %(entry)r'
    ),
    "record_entry_unknown_field": gettext_lazy("unknown field %(field)r"),
    "record_take_step": gettext_lazy(
        "%(move)r is a take step; a record holds finished moves like '%(move)s=*'"
    ),
    "record_took_nothing": gettext_lazy("%(move)r takes nothing, the record says it took %(took)r"),
    "record_took_differs": gettext_lazy("%(move)r takes %(took)s, the record says %(recorded)r"),
    "record_take_unplanted": gettext_lazy(
        "%(move)r: the take is not planted, the record would end mid-turn"
    ),
    # ----------------------------------------------------------------- puzzles
    "puzzle_not_topiary": gettext_lazy("expected a topiary position, got %(type)s"),
    "puzzle_not_in_play": gettext_lazy("phase: %(phase)r; a puzzle is a position in play"),
    "puzzle_others_unplaced": gettext_lazy(
        "unplaced: seat %(seat)s still has visitors; in a puzzle only the seat to move (seat "
        "%(mover)s) has any left"
    ),
    "puzzle_moves_not_list": gettext_lazy(
        "moves: expected a list of moves in notation, like ['c5:S c4=R3']"
    ),
    "puzzle_moves_count": gettext_lazy(
        "moves: the puzzle needs exactly %(needed)s moves, got %(count)s"
    ),
    "puzzle_move_illegal": gettext_lazy("move %(ply)s: %(reason)s"),
    "puzzle_date": gettext_lazy("date: %(date)r is not an ISO date like 2026-11-22"),
    # ----------------------------------------------------------------- games and tables
    "unknown_game": gettext_lazy("unknown game %(game)r: expected %(expected)s"),
    "players_not_for_game": gettext_lazy("%(game)s is for %(seats)s players"),
    # ----------------------------------------------------------------- the command line
    "cli_every_hand_unknown": gettext_lazy(
        "hands[%(seat)s]: unknown ('?'), but every hand is needed"
    ),
    "cli_mover_hand_unknown": gettext_lazy(
        "hands[%(seat)s]: unknown ('?'), but the mover's hand is needed"
    ),
    "cli_not_utf8": gettext_lazy("%(source)s: not UTF-8 text"),
    "cli_invalid_json": gettext_lazy(
        "%(source)s: invalid JSON at line %(line)s column %(column)s: %(detail)s"
    ),
}

#: Params that hold the engine's own English words (an end reason, ``2 to 4``): they are
#: in ``ENGINE_TEXTS`` and translated with the message.
_WORD_PARAMS = ("end_reason", "seats")

#: Every English text the engine hands the site for display (names stay as they are: the
#: games' titles "Topiary" and "Wizards' Garden", and notation). A test walks the game
#: definitions, so a new option or column cannot go untranslated.
ENGINE_TEXTS = (
    # Topiary's tile types (engine.topiary.TYPE_NAMES)
    gettext_noop("Elephant"),
    gettext_noop("Polyhedron"),
    gettext_noop("Swan"),
    gettext_noop("Pom Pom"),
    gettext_noop("Pyramid"),
    gettext_noop("T-Rex"),
    gettext_noop("Spiral"),
    gettext_noop("Whale"),
    # Topiary's rule options: label, then what it does
    gettext_noop("Corner diagonals"),
    gettext_noop("visitors may stand at the 8 one-tile corner diagonals."),
    gettext_noop("Must take"),
    gettext_noop("a visitor whose line holds a face-down tile must take one."),
    gettext_noop("Draft the hands"),
    gettext_noop("pass tiles round to choose hands."),
    gettext_noop("Ties share the win"),
    gettext_noop("no later-in-turn tie-break."),
    # Topiary's score columns
    gettext_noop("Visitors"),
    gettext_noop("Bonus"),
    gettext_noop("Hand"),
    # Wizards' Garden's rule option
    gettext_noop("Setup seeds apart"),
    gettext_noop("setup seeds may not touch."),
    # Wizards' Garden's score columns (Dovetail and Ravenclaw are the seeds' sides)
    gettext_noop("Dovetail (W)"),
    gettext_noop("Ravenclaw (B)"),
    gettext_noop("Staff"),
    gettext_noop("Holds the staff"),
    # Wizards' Garden's end reasons (engine.wizards_garden.END_REASONS)
    gettext_noop("the basket is empty"),
    gettext_noop("the board is empty"),
    gettext_noop("the board is full"),
    # How many players a game is for (GameDefinition.seats_text), where it is not one number
    gettext_noop("2 to 4"),
)


def _word(value):
    return gettext(value) if isinstance(value, str) and value else value


def error_message(error: EngineError) -> str:
    """``error``'s message in the active language; an error without a known code (a game
    defined outside the engine) as it is."""
    template = MESSAGES.get(error.code)
    if template is None:
        return str(error)
    params = dict(error.params)
    for name in _WORD_PARAMS:
        if name in params:
            params[name] = _word(params[name])
    if error.inner is not None:
        params["reason"] = error_message(error.inner)
    text = str(template) % params
    if isinstance(error, RecordError) and error.ply:
        text = str(MESSAGES["at_ply"]) % {"ply": error.ply, "reason": text}
    return text


def engine_texts_for_js() -> dict[str, str]:
    """Every engine display text and its translation in the active language, for a page
    script that gets the engine's English in a frame (``json_script`` it into the page)."""
    return {text: gettext(text) for text in ENGINE_TEXTS}
