"""The English of every error code Topiary raises, as %-templates over the error's params
(``GAME.messages``; ``engine.errors`` explains codes and params)."""

from __future__ import annotations

from engine.errors import gettext_noop

MESSAGES: dict[str, str] = {
    # Moves
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
    # Positions
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
    "position_unknown_field": gettext_noop("position: unknown field %(field)r"),
    "position_missing_field": gettext_noop("position: missing field %(field)r"),
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
    # Options
    "options_not_object": gettext_noop("options: expected an object, got %(value)r"),
    "options_unknown": gettext_noop("options: unknown option %(option)r"),
    "options_not_options": gettext_noop("options: expected topiary.Options, got %(value)r"),
    "option_players": gettext_noop("options.players: %(value)r is not 2, 3 or 4"),
    "option_not_bool": gettext_noop("options.%(option)s: %(value)r is not true/false"),
    "option_tiebreak": gettext_noop("options.tiebreak: %(value)r is not 'later' or 'share'"),
    "not_seed_deal": gettext_noop("not the deal of seed %(seed)r"),
}
