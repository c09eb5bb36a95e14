"""A deliberately simple Topiary referee, written from TOPIARY.md and NOTATION.md alone.

It is a test oracle for ``engine.topiary``: slow, plain dicts and lists, every rule
spelled out where it is used, and no code shared with the engine. It reads and
writes positions as NOTATION.md's JSON (plus the engine's ``first_player``, ``box``
and ``draft`` fields, which a full position needs to be played on).

Where the spec leaves something open, the choice made here is named in a comment.
"""

from __future__ import annotations

import functools
import itertools
import json

TYPES = "EHNOPRSW"
FILES = "abcde"
RANKS = "12345"
DIRECTIONS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
DEFAULT_OPTIONS = {
    "players": 2,
    "corner_diagonals": True,
    "must_pick": False,
    "tiebreak": "later",
    "draft": False,
}
HAND_SIZE = 3
VISITORS_EACH = {2: 8, 3: 6, 4: 5}


class Illegal(Exception):
    """The oracle's refusal of a move."""


def on_board(x: int, y: int) -> bool:
    """Whether file index x and rank index y name a garden tile."""
    return 0 <= x < 5 and 0 <= y < 5


def cell_name(x: int, y: int) -> str:
    """``c3`` for file index 2, rank index 2."""
    return FILES[x] + RANKS[y]


def tile_value(tile: str) -> int:
    """The value of ``R3`` (or ``r3``)."""
    return int(tile[1])


def tile_type(tile: str) -> str:
    """The type letter of ``R3`` (or ``r3``)."""
    return tile[0].upper()


def copy_of(position: dict) -> dict:
    """A deep copy of a JSON position."""
    return json.loads(json.dumps(position))


def options_of(position: dict) -> dict:
    """The position's options with the defaults filled in."""
    options = dict(DEFAULT_OPTIONS)
    options.update(position.get("options", {}))
    return options


@functools.cache
def sight_line(entry: str, direction: str) -> tuple[str, ...]:
    """The cells a visitor at (entry, direction) sees, nearest first, to the far edge."""
    dx, dy = DIRECTIONS[direction]
    x, y = FILES.index(entry[0]), RANKS.index(entry[1])
    cells = []
    while on_board(x, y):
        cells.append(cell_name(x, y))
        x, y = x + dx, y + dy
    return tuple(cells)


@functools.cache
def all_positions(corner_diagonals: bool) -> tuple[str, ...]:
    """Every visitor position: a tile and a direction whose tile behind is off the board."""
    positions = []
    for x in range(5):
        for y in range(5):
            for direction, (dx, dy) in DIRECTIONS.items():
                if on_board(x - dx, y - dy):
                    continue
                is_diagonal = dx != 0 and dy != 0
                single_tile = len(sight_line(cell_name(x, y), direction)) == 1
                if is_diagonal and single_tile and not corner_diagonals:
                    continue
                positions.append(f"{cell_name(x, y)}:{direction}")
    return tuple(positions)


def garden_dict(position: dict) -> dict[str, str]:
    """The garden as {cell: text}: ``R3`` face up, ``r3`` face down (rank 5 is listed first)."""
    garden = {}
    for row_index, row in enumerate(position["garden"]):
        rank = 4 - row_index
        for file_index, text in enumerate(row):
            garden[cell_name(file_index, rank)] = text
    return garden


def garden_rows(garden: dict[str, str]) -> list[list[str]]:
    """The inverse of ``garden_dict``: NOTATION.md's rows, rank 5 first."""
    return [[garden[cell_name(x, y)] for x in range(5)] for y in range(4, -1, -1)]


def is_face_down(text: str) -> bool:
    """Whether a garden cell's text is a face-down tile (``r3``, or ``?`` in a view)."""
    return text == "?" or text[0].islower()


def first_player(position: dict) -> int:
    """The seat that moved first: the ``first_player`` field, else read from visitor counts.

    Without the field, the seats that have placed one more visitor than the mover are
    the ones before it in turn order; with equal counts the mover is first.
    """
    if "first_player" in position:
        return position["first_player"]
    players = options_of(position)["players"]
    placed = [0] * players
    for seat in position["visitors"].values():
        placed[seat] += 1
    mover = position["to_move"]
    first = mover
    seat = (mover - 1) % players
    while seat != mover and placed[seat] > placed[mover]:
        first = seat
        seat = (seat - 1) % players
    return first


def turn_order(position: dict) -> list[int]:
    """Seats in turn order: the first player, then on in seat order."""
    players = options_of(position)["players"]
    first = first_player(position)
    return [(first + i) % players for i in range(players)]


# ----------------------------------------------------------------------------- moves


def legal_moves(position: dict) -> set[str]:
    """The mover's legal moves, as a set of notation strings."""
    if position["phase"] == "over":
        return set()
    if position["phase"] == "draft":
        return draft_moves(position)
    options = options_of(position)
    mover = position["to_move"]
    if position["unplaced"][mover] == 0:
        return set()
    garden = garden_dict(position)
    hand = position["hands"][mover]
    moves = set()
    for place in all_positions(options["corner_diagonals"]):
        if place in position["visitors"]:
            continue
        entry, direction = place.split(":")
        face_down_cells = [c for c in sight_line(entry, direction) if is_face_down(garden[c])]
        if not (options["must_pick"] and face_down_cells):
            moves.add(place)
        for cell in face_down_cells:
            moves.add(f"{place} {cell}=*")
            for tile in hand:
                moves.add(f"{place} {cell}={tile}")
    return moves


def draft_moves(position: dict) -> set[str]:
    """Every ``keep`` of 3 tiles from the mover's hand and what was passed to them.

    The tiles are written in tile order; NOTATION.md does not fix the order.
    """
    mover = position["to_move"]
    pool = list(position["hands"][mover]) + list(position["draft"]["received"][mover])
    return {"keep " + " ".join(sort_tiles(kept)) for kept in itertools.combinations(pool, 3)}


def sort_tiles(tiles) -> list[str]:
    """Tiles in tile order (E1..W5), the order a set of tiles is written in here."""
    return sorted(tiles, key=lambda tile: (TYPES.index(tile_type(tile)), tile_value(tile)))


def apply(position: dict, move: str) -> dict:
    """The position after ``move``; ``Illegal`` saying why if the rules forbid it.

    Legality is checked here rule by rule, apart from ``legal_moves``, so the two can be
    held against each other. Naming the tile just taken instead of ``*`` is refused:
    NOTATION.md's move lists use ``*`` for that choice and hand tiles for the rest, and
    the tile is not in the hand when the move is made.
    """
    if position["phase"] == "draft":
        return apply_keep(position, move)
    if position["phase"] != "play":
        raise Illegal("the game is over")
    options = options_of(position)
    mover = position["to_move"]
    if position["unplaced"][mover] == 0:
        raise Illegal("the mover has no visitor left")
    words = move.split(" ")
    if len(words) not in (1, 2):
        raise Illegal(f"{move!r} is not a move")
    place = words[0]
    if place not in all_positions(options["corner_diagonals"]):
        raise Illegal(f"{place!r} is not a visitor position in this game")
    if place in position["visitors"]:
        raise Illegal(f"{place} is occupied")
    entry, direction = place.split(":")
    line = sight_line(entry, direction)
    garden = garden_dict(position)
    after = copy_of(position)
    after["visitors"][place] = mover
    after["unplaced"][mover] -= 1
    if len(words) == 1:
        if options["must_pick"] and any(is_face_down(garden[c]) for c in line):
            raise Illegal("must_pick: the line holds a face-down tile")
    else:
        cell, equals, planted = words[1].partition("=")
        if not equals or cell not in line:
            raise Illegal(f"{words[1]!r} does not name a tile of the sight line")
        if not is_face_down(garden[cell]):
            raise Illegal(f"{cell} is face up")
        hand = list(after["hands"][mover])
        if planted != "*" and planted not in hand:
            raise Illegal(f"{planted!r} is not in the hand")
        taken = garden[cell].upper()
        hand.append(taken)
        if planted == "*":
            planted = taken
        hand.remove(planted)
        after["hands"][mover] = sort_tiles(hand)
        garden[cell] = planted
        after["garden"] = garden_rows(garden)
    pass_turn(after, mover)
    return after


def pass_turn(position: dict, mover: int) -> None:
    """Hand the turn to the next seat in seat order that still has a visitor to place.

    When nobody has one left the game is over; ``to_move`` is then the seat after the
    mover (the spec leaves it open; it is meaningless once the game is over).
    """
    players = options_of(position)["players"]
    for step in range(1, players + 1):
        seat = (mover + step) % players
        if position["unplaced"][seat] > 0:
            position["to_move"] = seat
            return
    position["phase"] = "over"
    position["to_move"] = (mover + 1) % players


def apply_keep(position: dict, move: str) -> dict:
    """A draft move: keep 3 tiles, pass the rest to the seat before in turn order.

    The first player's pass goes to the box and play starts with the first player.
    """
    words = move.split()
    if len(words) != 4 or words[0] != "keep":
        raise Illegal(f"{move!r} is not a keep move")
    kept = sort_tiles(words[1:])
    if "keep " + " ".join(kept) not in draft_moves(position):
        raise Illegal(f"{move!r} is not legal here")
    after = copy_of(position)
    mover = after["to_move"]
    pool = after["hands"][mover] + after["draft"]["received"][mover]
    passed = sort_tiles(t for t in pool if t not in kept)
    after["hands"][mover] = kept
    after["draft"]["passed_on"][mover] = passed
    order = turn_order(after)
    if mover == order[0]:
        after["box"] = sort_tiles(after.get("box", []) + passed)
        after["phase"] = "play"
        after["to_move"] = order[0]
    else:
        before = order[order.index(mover) - 1]
        after["draft"]["received"][before] = passed
        after["to_move"] = before
    return after


# ----------------------------------------------------------------------------- score


def visible_tiles(position: dict, place: str) -> list[str]:
    """The face-up tiles the visitor at ``place`` sees, nearest first.

    Face-down tiles are skipped (never visible, never blocking); the first face-up tile
    is seen, each later one only if strictly higher than every tile seen before it.
    """
    garden = garden_dict(position)
    entry, direction = place.split(":")
    seen = []
    for cell in sight_line(entry, direction):
        text = garden[cell]
        if is_face_down(text):
            continue
        if not seen or tile_value(text) > max(tile_value(s) for s in seen):
            seen.append(text)
    return seen


def score(position: dict) -> dict:
    """NOTATION.md's score JSON for the position as it stands."""
    options = options_of(position)
    players = options["players"]
    rows = []
    for seat in range(players):
        visitors = 0
        bonus = 0
        seen_by_seat = []
        for place, owner in position["visitors"].items():
            if owner != seat:
                continue
            seen = visible_tiles(position, place)
            seen_by_seat.extend(seen)
            visitors += sum(tile_value(t) for t in seen)
            for kind in TYPES:
                count = sum(1 for t in seen if tile_type(t) == kind)
                if count >= 2:
                    bonus += count
        hand = 0
        for tile in position["hands"][seat]:
            if any(
                tile_type(s) == tile_type(tile) and tile_value(s) > tile_value(tile)
                for s in seen_by_seat
            ):
                hand += tile_value(tile)
        rows.append(
            {
                "seat": seat,
                "visitors": visitors,
                "bonus": bonus,
                "hand": hand,
                "total": visitors + bonus + hand,
            }
        )
    return {"scores": rows, "winners": winners(position, rows, options["tiebreak"])}


def winners(position: dict, rows: list[dict], tiebreak: str) -> list[int]:
    """Highest total; then most hand points; then the later in turn order, or all share."""
    best_total = max(r["total"] for r in rows)
    tied = [r for r in rows if r["total"] == best_total]
    best_hand = max(r["hand"] for r in tied)
    tied = [r["seat"] for r in tied if r["hand"] == best_hand]
    if tiebreak == "share":
        return sorted(tied)
    order = turn_order(position)
    return [max(tied, key=order.index)]


# ----------------------------------------------------------------------------- perft


def perft(position: dict, depth: int) -> int:
    """Leaf count of the move tree to ``depth``, counting a finished game as a dead end."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(legal_moves(position))
    return sum(perft(apply(position, move), depth - 1) for move in legal_moves(position))


# ----------------------------------------------------------------------------- knowledge


def tiles_known_to(position: dict, seat: int | None) -> set[str]:
    """The tile identities ``seat`` may know (upper case); a spectator (None) only face-up ones.

    Face-up garden tiles are public; a seat also knows its own hand and, in a draft, what
    it was passed and what it passed on.
    """
    known = {text for text in garden_dict(position).values() if not is_face_down(text)}
    if seat is not None:
        known.update(position["hands"][seat])
        draft = position.get("draft")
        if draft:
            known.update(draft["received"][seat] or [])
            known.update(draft["passed_on"][seat] or [])
    return known


def all_tiles_in(position: dict) -> set[str]:
    """Every tile identity present in a full position (upper case): garden, hands, box, draft."""
    tiles = {text.upper() for text in garden_dict(position).values()}
    for hand in position["hands"]:
        tiles.update(hand)
    tiles.update(position.get("box", []))
    draft = position.get("draft")
    if draft:
        for pile in draft["received"] + draft["passed_on"]:
            tiles.update(pile or [])
    return tiles
