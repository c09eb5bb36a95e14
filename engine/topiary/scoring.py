"""Topiary's one scoring core, ``line_points`` and ``hand_points`` on bitmasks.

The bots, the playouts and the puzzle solver call it in their hot loops
(``engine.topiary.fastplay`` re-exports it), and ``score``, ``public_score``, ``totals`` and
``sight_lines`` are read off it; so is the tie-break, ``winners``.
"""

from __future__ import annotations

import functools

from engine.topiary.board import (
    ALL_TILES,
    CELLS,
    FACE_DOWN,
    LINES,
    POSITIONS,
    TILE_NAMES,
    TILE_VALUE,
    _mask_tiles,
)

#: Per tile: the bitmask of same-type tiles of larger value (rule 3 of scoring).
BEATS = tuple(sum(1 << (t - t % 5 + v) for v in range(t % 5 + 1, 5)) for t in ALL_TILES)


def line_points(garden, line) -> tuple[int, int]:
    """``(points, seen)`` of one sight line: values seen plus type bonus, and the seen tiles.

    ``seen`` is a bitmask (bit ``tile``). A face-down, unknown or gap cell is never seen and
    never blocks; a face-up tile is seen when it is the first or higher than every tile seen
    before it; each type seen k >= 2 times adds k.
    """
    top = points = seen = kinds = pairs = 0
    for cell in line:
        tile = garden[cell]
        if tile >= FACE_DOWN:
            continue
        value = tile % 5 + 1
        if value > top:
            top = value
            points += value
            seen |= 1 << tile
            kind = 1 << (tile // 5)
            if kinds & kind:
                # The second tile of a type adds 2 (k = 2), each later one adds 1 more.
                points += 1 if pairs & kind else 2
                pairs |= kind
            kinds |= kind
    return points, seen


def lines_points(garden, positions) -> tuple[int, int]:
    """``(points, seen)`` of the sight lines of ``positions`` together: their points summed,
    their seen tiles joined (what one seat's visitors see, before its hand)."""
    points = seen = 0
    for p in positions:
        pts, mask = line_points(garden, LINES[p])
        points += pts
        seen |= mask
    return points, seen


def hand_points(hand, seen: int) -> int:
    """Points from tiles in hand for a player whose visitors see the tiles in ``seen``.

    A hand tile scores when ``seen & BEATS[tile]``: a tile of its type with a larger value
    is seen, so one AND answers rule 3 for any union of lines.
    """
    return sum(TILE_VALUE[t] for t in hand if seen & BEATS[t])


def totals(garden, visitors, hands, players: int) -> tuple[list[int], list[int]]:
    """Every seat's (total, hand points) for a position with known hands."""
    points = [0] * players
    seen = [0] * players
    for p, seat in enumerate(visitors):
        if seat >= 0:
            pts, mask = line_points(garden, LINES[p])
            points[seat] += pts
            seen[seat] |= mask
    hand = [hand_points(hands[s], seen[s]) for s in range(players)]
    return [points[s] + hand[s] for s in range(players)], hand


def _score_parts(
    garden: tuple[int, ...], visitors: tuple[int, ...], hands, players: int
) -> tuple[list[int], list[int], list[int | None]]:
    """Per seat: values seen, type bonus, hand points (None where the hand is unknown)."""
    values = [0] * players
    bonus = [0] * players
    seen = [0] * players
    for p, seat in enumerate(visitors):
        if seat >= 0:
            points, mask = line_points(garden, LINES[p])
            line_values = sum(TILE_VALUE[t] for t in _mask_tiles(mask))
            values[seat] += line_values
            bonus[seat] += points - line_values
            seen[seat] |= mask
    hand = [None if hands[s] is None else hand_points(hands[s], seen[s]) for s in range(players)]
    return values, bonus, hand


def _sight_lines(
    garden: tuple[int, ...], visitors: tuple[int, ...], free: tuple[int, ...] = ()
) -> list[dict]:
    """Each placed visitor, its line, the face-up tiles it sees and the points they make
    (``line_points`` spelled out in notation); then each position of ``free`` (seat None).

    Every viewer of a position sees the same lines (face-up tiles only), and a server
    sends them to each viewer of every change; a move changes one or two lines, so each
    line's sight is worked out once for the tiles on it (``_line_sight``). Each sight is a
    fresh dict; its ``line`` and ``seen`` lists are shared, read only.
    """
    sights = []
    placed = [(p, seat) for p, seat in enumerate(visitors) if seat >= 0]
    for p, seat in placed + [(p, None) for p in free]:
        seen, points = _line_sight(p, tuple([garden[cell] for cell in LINES[p]]))
        sights.append(
            {
                "position": POSITIONS[p],
                "seat": seat,
                "line": _LINE_CELLS[p],
                "seen": seen,
                "points": points,
            }
        )
    return sights


#: Per position: its line's cells in notation (shared by every sight of that position).
_LINE_CELLS = tuple([CELLS[cell] for cell in line] for line in LINES)
#: Per cell, per face-up tile: the ``seen`` entry of that tile on that cell (shared).
_SEEN_ENTRY = tuple(
    tuple({"cell": CELLS[cell], "tile": TILE_NAMES[tile]} for tile in range(FACE_DOWN))
    for cell in range(25)
)
#: Lines kept by ``_line_sight``: a mover's frame shows every free position's line too
#: (up to 56), so this is about a thousand games' lines, some 25 MB at most.
_LINE_SIGHTS_KEPT = 1 << 16


@functools.lru_cache(maxsize=_LINE_SIGHTS_KEPT)
def _line_sight(p: int, tiles: tuple[int, ...]) -> tuple[list[dict], int]:
    """(tiles seen, points) of position ``p``'s line when ``tiles`` lie on it."""
    points, seen = line_points(tiles, range(len(tiles)))
    return [
        _SEEN_ENTRY[cell][tile]
        for cell, tile in zip(LINES[p], tiles, strict=True)
        if tile < FACE_DOWN and seen >> tile & 1
    ], points


def _turn_order(first_player: int, players: int) -> list[int]:
    return [(first_player + i) % players for i in range(players)]


def _scoring_hand_tiles(garden, visitors, hands) -> list[list[str]]:
    """Per seat, the tiles of its hand that score (``hand_points`` tile by tile)."""
    seen = [0] * len(hands)
    for p, seat in enumerate(visitors):
        if seat >= 0:
            seen[seat] |= line_points(garden, LINES[p])[1]
    return [[TILE_NAMES[t] for t in hand if seen[s] & BEATS[t]] for s, hand in enumerate(hands)]


def winners(totals, hand_points, first_player: int, tiebreak: str = "later") -> list[int]:
    """The winning seats: highest total, then most hand points, then ``tiebreak``.

    ``"later"``: the tied seat later in turn order (counted from ``first_player``) wins;
    ``"share"``: every still-tied seat wins.
    """
    players = len(totals)
    best = max((totals[s], hand_points[s]) for s in range(players))
    tied = [s for s in _turn_order(first_player, players) if (totals[s], hand_points[s]) == best]
    if tiebreak == "share":
        return sorted(tied)
    return [tied[-1]]
