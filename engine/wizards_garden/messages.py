"""The English of every error code Wizards' Garden raises, as %-templates over the error's
params (``GAME.messages``; ``engine.errors`` explains codes and params)."""

from __future__ import annotations

from engine.errors import gettext_noop

MESSAGES: dict[str, str] = {
    # Puzzles
    "puzzle_not_wizards_garden": gettext_noop("expected a Wizards' Garden position, got %(type)s"),
    "puzzle_depth": gettext_noop("k: %(k)r is not a number of plantings from 1 to 4"),
    # Moves
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
    # Positions
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
}
