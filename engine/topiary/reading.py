"""A Topiary position from NOTATION.md's JSON, checked field by field: a full state
(``state_from_json``) or one player's view with ``?`` completed (``state_from_view_json``)."""

from __future__ import annotations

import itertools
from typing import Any

from engine.errors import NotationError
from engine.topiary.board import (
    CELL_INDEX,
    CELLS,
    CENTRE,
    FACE_DOWN,
    GAP,
    HAND_SIZE,
    JSON_ORDER,
    LINES,
    NAME,
    PHASES,
    POSITION_INDEX,
    POSITIONS,
    TILE_NAMES,
    TILE_TYPE,
    TYPES,
    Options,
    _parse_cell_tile,
    _require,
    _seat,
    parse_tile,
)
from engine.topiary.state import State
from engine.topiary.view import _face_down_mask

_POSITION_KEYS = {
    "game",
    "options",
    "removed_type",
    "garden",
    "visitors",
    "unplaced",
    "hands",
    "to_move",
    "phase",
    "first_player",
    "draft",
    "box",
    "pending",
}


def _tile_list(data: Any, where: str, length: int | None = None) -> tuple[int, ...]:
    _require(isinstance(data, list), "tiles_not_list", field=where, value=data)
    if length is not None:
        _require(len(data) == length, "tiles_count", field=where, length=length, count=len(data))
    return tuple(parse_tile(x, f"{where}[{i}]") for i, x in enumerate(data))


def state_from_json(data: Any) -> State:
    """A full position from NOTATION.md's JSON; NotationError naming the field if malformed."""
    _require(isinstance(data, dict), "position_not_object")
    unknown = sorted(set(data) - _POSITION_KEYS)
    if unknown:
        raise NotationError(code="position_unknown_field", field=unknown[0])
    _require(data.get("game") == NAME, "wrong_game", game=data.get("game"), expected=NAME)
    options = Options.from_json(data.get("options", {}))
    players = options.players
    for key in ("garden", "unplaced", "hands", "to_move", "phase"):
        _require(key in data, "position_missing_field", field=key)
    _require(
        players == 4 or "removed_type" in data, "position_missing_removed_type", players=players
    )

    removed_text = data.get("removed_type")
    if players == 4:
        _require(removed_text is None, "removed_type_not_null")
        removed = None
    else:
        _require(
            isinstance(removed_text, str) and len(removed_text) == 1 and removed_text in TYPES,
            "removed_type_invalid",
            value=removed_text,
            types=TYPES,
            players=players,
        )
        removed = TYPES.index(removed_text)

    rows = data.get("garden")
    _require(
        isinstance(rows, list)
        and len(rows) == 5
        and all(isinstance(r, list) and len(r) == 5 for r in rows),
        "garden_shape",
    )
    garden = [0] * 25
    for row in range(5):
        for col in range(5):
            cell = JSON_ORDER[row * 5 + col]
            garden[cell] = _parse_cell_tile(rows[row][col], f"garden {CELLS[cell]}")
    _require(garden[CENTRE] < FACE_DOWN, "centre_face_down")

    placed = data.get("visitors", {})
    _require(isinstance(placed, dict), "visitors_not_object")
    visitors = [-1] * len(POSITIONS)
    for name, seat in placed.items():
        p = POSITION_INDEX.get(name)
        _require(p is not None, "visitors_no_such_position", position=name)
        _require(p in options.positions, "visitors_not_in_play", position=name)
        visitors[p] = _seat(seat, f"visitors.{name}", players)

    unplaced = data.get("unplaced")
    _require(
        isinstance(unplaced, list) and len(unplaced) == players,
        "unplaced_not_list",
        players=players,
    )
    for s, count in enumerate(unplaced):
        quota = options.visitors_each
        _require(
            type(count) is int and 0 <= count <= quota,
            "unplaced_count",
            seat=s,
            count=count,
            quota=quota,
        )
        on_board = visitors.count(s)
        _require(
            on_board + count == quota,
            "unplaced_sum",
            seat=s,
            placed=on_board,
            count=count,
            quota=quota,
        )

    phase = data.get("phase")
    _require(phase in PHASES, "phase_unknown", phase=phase)
    to_move = _seat(data.get("to_move"), "to_move", players)
    pending = _pending_from_json(data.get("pending"), garden, visitors, to_move, options)
    _require(pending is None or phase == "play", "pending_outside_play", phase=phase)

    hands_data = data.get("hands")
    _require(
        isinstance(hands_data, list) and len(hands_data) == players,
        "hands_count",
        players=players,
    )
    hands = tuple(
        tuple(
            sorted(
                _tile_list(
                    h,
                    f"hands[{s}]",
                    HAND_SIZE + (pending is not None and s == to_move),
                )
            )
        )
        for s, h in enumerate(hands_data)
    )
    if pending is not None:
        _require(
            pending[2] in hands[to_move],
            "pending_took_not_in_hand",
            tile=TILE_NAMES[pending[2]],
            seat=to_move,
        )

    # A pending take's visitor is placed, but the turn is not over until the plant.
    unplaced_at_turn = list(unplaced)
    if pending is not None:
        unplaced_at_turn[to_move] += 1
    all_placed = not any(unplaced_at_turn)
    if phase == "over":
        _require(all_placed, "over_with_unplaced")
    else:
        _require(not all_placed, "all_placed_not_over", phase=phase)
    if phase == "play":
        _require(unplaced_at_turn[to_move] > 0, "to_move_no_visitors", seat=to_move)

    received = passed_on = None
    pool: tuple[int, ...] = ()
    if options.draft:
        received, passed_on = _draft_from_json(data.get("draft"), players)
        if phase == "draft":
            _require(
                received[to_move] is not None,
                "draft_nothing_received",
                seat=to_move,
            )
            _require(all(v < 0 for v in visitors), "visitors_in_draft")
            pool = received[to_move]
    else:
        _require("draft" not in data, "draft_without_option")
        _require(phase != "draft", "draft_phase_without_option")

    if "first_player" in data:
        first = _seat(data["first_player"], "first_player", players)
    elif phase == "draft":
        # The draft runs backwards from the seat before the first player, one keep per seat.
        kept = sum(x is not None for x in passed_on)
        first = (to_move + 1 + kept) % players
    else:
        first = _derived_first_player(options, unplaced_at_turn, to_move)

    seen: dict[int, str] = {}
    for cell in range(25):
        if garden[cell] != GAP:
            _claim(seen, garden[cell] % FACE_DOWN, f"garden {CELLS[cell]}")
    for s, hand in enumerate(hands):
        for tile in hand:
            _claim(seen, tile, f"hands[{s}]")
    for tile in pool:
        _claim(seen, tile, f"draft.received[{to_move}]")
    for tile, where in seen.items():
        _require(
            TILE_TYPE[tile] != removed,
            "tile_of_removed_type",
            field=where,
            tile=TILE_NAMES[tile],
            type=TYPES[removed or 0],
        )
    box = tuple(t for t in options.game_tiles(removed) if t not in seen)
    if "box" in data:
        given = tuple(sorted(_tile_list(data["box"], "box")))
        _require(
            given == box,
            "box_mismatch",
            box=[TILE_NAMES[t] for t in box],
        )
    return State(
        options=options,
        garden=tuple(garden),
        visitors=tuple(visitors),
        unplaced=tuple(unplaced),
        hands=hands,
        box=box,
        to_move=to_move,
        phase=phase,
        removed_type=removed,
        first_player=first,
        received=received,
        passed_on=passed_on,
        face_down=_face_down_mask(garden),
        pending=pending,
    )


def _pending_from_json(
    data: Any, garden: list[int], visitors: list[int], to_move: int, options: Options
) -> tuple[int, int, int] | None:
    """A position's ``pending`` take; the gap (``.``) must be its cell and nowhere else."""
    gaps = [CELLS[c] for c in range(25) if garden[c] == GAP]
    if data is None:
        if gaps:
            raise NotationError(code="gap_without_pending", cell=gaps[0])
        return None
    _require(
        isinstance(data, dict) and set(data) == {"position", "cell", "took"},
        "pending_not_object",
    )
    p = POSITION_INDEX.get(data["position"])
    _require(p is not None, "pending_no_such_position", position=data["position"])
    _require(p in options.positions, "pending_not_in_play", position=POSITIONS[p])
    _require(
        visitors[p] == to_move,
        "pending_visitor_not_movers",
        position=POSITIONS[p],
        seat=to_move,
    )
    cell = CELL_INDEX.get(data["cell"]) if isinstance(data["cell"], str) else None
    _require(
        cell is not None and cell in LINES[p],
        "pending_cell_not_in_line",
        cell=data["cell"],
        position=POSITIONS[p],
    )
    if not gaps:
        raise NotationError(code="pending_gap_missing", cell=CELLS[cell])
    _require(gaps == [CELLS[cell]], "pending_gap_elsewhere", cell=CELLS[cell], gaps=gaps)
    return p, cell, parse_tile(data["took"], "pending.took")


def state_from_view_json(data: Any) -> tuple[State, frozenset[int]]:
    """A position that may show ``?`` (a viewer's), completed so it can be scored or moved from.

    NOTATION.md lets a position be "one player's view": ``?`` for face-down identities the
    viewer does not know and for other players' hands. Face-down tiles count 0 and never
    block, and the move list needs only where they lie and the mover's hand, so each ``?`` is
    filled with an unseen tile (in tile order) and the answer does not depend on the choice.
    Also returns the seats whose hands were unknown, for callers that need a hand.
    """
    _require(isinstance(data, dict), "position_not_object")
    rows, hands, pending = data.get("garden"), data.get("hands"), data.get("pending")
    draft = data.get("draft") if isinstance(data.get("draft"), dict) else {}
    pools = [
        pool
        for name in ("received", "passed_on")
        if isinstance(draft.get(name), list)
        for pool in draft[name]
    ]
    # Only the pool the drafting mover picks from must hold tiles found nowhere else.
    received = draft.get("received")
    mover = data.get("to_move")
    drafting = data.get("phase") == "draft" and _is_seat_of(mover, received)
    mover_pool = received[mover] if drafting else None
    took_unknown = isinstance(pending, dict) and pending.get("took") == "?"
    if not (_has_unknown(rows) or _has_unknown(hands) or _has_unknown(pools) or took_unknown):
        return state_from_json(data), frozenset()
    _require("box" not in data, "box_with_unknowns")
    options = Options.from_json(data.get("options", {}))
    removed = data.get("removed_type")
    removed_type = TYPES.index(removed) if isinstance(removed, str) and removed in TYPES else None
    named = {
        text[:1].upper() + text[1:]
        for text in _json_texts(rows) + _json_texts(hands) + _json_texts([mover_pool])
        if isinstance(text, str) and text != "?"
    }
    unseen = iter(
        TILE_NAMES[t] for t in options.game_tiles(removed_type) if TILE_NAMES[t] not in named
    )

    def fill(text: Any, face_down: bool) -> Any:
        if text != "?":
            return text
        tile = next(unseen, None)
        _require(tile is not None, "too_many_unknowns")
        return tile.lower() if face_down else tile

    completed = dict(data)
    if isinstance(rows, list):
        completed["garden"] = [
            [fill(cell, True) for cell in row] if isinstance(row, list) else row for row in rows
        ]
    unknown_hands = frozenset()
    if isinstance(hands, list):
        unknown_hands = frozenset(
            s for s, hand in enumerate(hands) if isinstance(hand, list) and "?" in hand
        )
        completed["hands"] = [
            [fill(tile, False) for tile in hand] if isinstance(hand, list) else hand
            for hand in hands
        ]
    if pools:
        # The other pools are a record of what was passed (those tiles are in hands or the
        # garden by now): any tile of the game will do for their '?'.
        any_tile = itertools.cycle(TILE_NAMES[t] for t in options.game_tiles(removed_type))

        def fill_pool(pool: Any, own: bool) -> Any:
            if not isinstance(pool, list):
                return pool
            return [fill(t, False) if own else next(any_tile) if t == "?" else t for t in pool]

        completed["draft"] = {
            **draft,
            **{
                name: [fill_pool(pool, pool is mover_pool) for pool in draft[name]]
                for name in ("received", "passed_on")
                if isinstance(draft.get(name), list)
            },
        }
    if took_unknown:
        # Only a viewer who does not know the mover's hand sees '?' (the caller is told the
        # hand is unknown); any of its completed tiles will do.
        mover = data.get("to_move")
        hand = completed.get("hands")[mover] if _is_seat_of(mover, completed.get("hands")) else []
        _require(bool(hand), "pending_took_hand_unknown")
        completed["pending"] = {**pending, "took": hand[0]}
    return state_from_json(completed), unknown_hands


def _is_seat_of(seat: Any, hands: Any) -> bool:
    return type(seat) is int and isinstance(hands, list) and 0 <= seat < len(hands)


def _json_texts(rows: Any) -> list:
    if not isinstance(rows, list):
        return []
    return [x for row in rows if isinstance(row, list) for x in row]


def _has_unknown(rows: Any) -> bool:
    return "?" in _json_texts(rows)


def _claim(seen: dict[int, str], tile: int, where: str) -> None:
    _require(
        tile not in seen, "tile_twice", field=where, tile=TILE_NAMES[tile], other=seen.get(tile)
    )
    seen[tile] = where


def _derived_first_player(options: Options, unplaced, to_move: int) -> int:
    """The first player implied by who has placed one visitor more than the others.

    Seats that have placed more form the run of turn order that ends just before the mover.
    """
    placed = [options.visitors_each - u for u in unplaced]
    ahead = sum(1 for x in placed if x > min(placed))
    return (to_move - ahead) % options.players


def _draft_from_json(data: Any, players: int):
    _require(isinstance(data, dict), "draft_not_object")
    out = []
    for key in ("received", "passed_on"):
        lists = data.get(key)
        _require(
            isinstance(lists, list) and len(lists) == players,
            "draft_entries",
            key=key,
        )
        out.append(
            tuple(
                None if x is None else _tile_list(x, f"draft.{key}[{s}]")
                for s, x in enumerate(lists)
            )
        )
    return out[0], out[1]
