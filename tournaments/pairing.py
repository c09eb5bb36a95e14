"""Pairing rules for every tournament format, as pure functions of the players' records.

Nothing here touches the database: the services build ``Competitor`` records from
the stored games and store what these functions return. Swiss pairings and arena
pairings are maximum-weight matchings (networkx); the weight of an edge is a
lexicographic sum, so a higher rule can never be traded for any number of lower ones:

1. nobody gets a second bye while another player could take it,
2. nobody meets an opponent again while another pairing avoids it,
3. nobody's first-move balance leaves -1..+1 while another pairing keeps it,
4. scores as near as possible (sum of squared score gaps as small as possible).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

#: Default points per finishing place, by table size (ties share the places they span).
DEFAULT_PLACE_POINTS = {4: (3, 2, 1, 0), 3: (2, 1, 0), 2: (1, 0)}

_BYE = "bye"


@dataclass(frozen=True)
class Competitor:
    """What pairing needs to know about one player still in the event."""

    id: int
    score: float = 0.0
    #: Everyone this player has already met (2-player) or sat at a table with.
    opponents: frozenset[int] = field(default_factory=frozenset)
    #: Games where this player moved first, and games where they did not.
    firsts: int = 0
    seconds: int = 0
    byes: int = 0
    #: Seeding among equal scores: higher rating is listed (and paired) first.
    rating: float = 0.0

    @property
    def balance(self) -> int:
        """Moves first minus moves second: kept within -1..+1."""
        return self.firsts - self.seconds


@dataclass(frozen=True)
class RoundPairing:
    """One round: tables (players in seat order, the first moves first) and byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def seeding_order(competitors: Iterable[Competitor]) -> list[Competitor]:
    """Standing order for pairing: score, then rating, then the lower id."""
    return sorted(competitors, key=lambda c: (-c.score, -c.rating, c.id))


def _half_points(score: float) -> int:
    return round(score * 2)


def _colour_fits(a: Competitor, b: Competitor) -> bool:
    """Whether one of them can move first with both balances staying within -1..+1."""
    return min(a.balance, b.balance) <= 0 <= max(a.balance, b.balance)


def _first_mover(a: Competitor, b: Competitor, board: int) -> tuple[Competitor, Competitor]:
    """Seat order for a pair: the one owed a first move goes first, else alternate by board."""
    if a.balance != b.balance:
        return (a, b) if a.balance < b.balance else (b, a)
    if a.firsts + a.seconds != b.firsts + b.seconds:
        # Equal balance but different histories: the one with fewer first moves overall.
        return (a, b) if a.firsts < b.firsts else (b, a)
    return (a, b) if board % 2 == 0 else (b, a)


def swiss_pair(competitors: Sequence[Competitor]) -> RoundPairing:
    """A Swiss round for a 2-player game (see the module docstring for the rules' order).

    With an odd number of players one gets the bye: the lowest-placed who has not
    had one. Returns tables in standing order of their higher-placed player.
    """
    players = seeding_order(competitors)
    if len(players) < 2:
        return RoundPairing(tables=(), byes=tuple(c.id for c in players))
    place = {c.id: i for i, c in enumerate(players)}
    top = max(_half_points(c.score) for c in players)
    low = min(_half_points(c.score) for c in players)
    spread = top - low + 1
    # Weights of the lower rules are bounded by these, so each higher rule dominates.
    near_unit = len(players) * len(players) + 1
    near_max = spread * spread * near_unit + near_unit
    colour_weight = near_max * (len(players) + 1)
    rematch_weight = colour_weight * (len(players) + 1)
    bye_weight = rematch_weight * (len(players) + 1)

    graph = nx.Graph()
    for a, b in combinations(players, 2):
        gap = abs(_half_points(a.score) - _half_points(b.score))
        weight = bye_weight + near_max - gap * gap * near_unit - abs(place[a.id] - place[b.id])
        if b.id not in a.opponents:
            weight += rematch_weight
        if _colour_fits(a, b):
            weight += colour_weight
        graph.add_edge(a.id, b.id, weight=weight)
    if len(players) % 2:
        for c in players:
            # The bye goes to the lowest score, and among those to the lowest placed.
            gap = _half_points(c.score) - low
            weight = rematch_weight + colour_weight + near_max - gap * gap * near_unit
            weight -= len(players) - place[c.id]
            if c.byes == 0:
                weight += bye_weight
            graph.add_edge(_BYE, c.id, weight=weight)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    by_id = {c.id: c for c in players}
    byes: list[int] = []
    pairs: list[tuple[Competitor, Competitor]] = []
    for u, v in matching:
        if _BYE in (u, v):
            byes.append(v if u == _BYE else u)
            continue
        a, b = sorted((by_id[u], by_id[v]), key=lambda c: place[c.id])
        pairs.append((a, b))
    pairs.sort(key=lambda pair: place[pair[0].id])
    tables = tuple(
        tuple(c.id for c in _first_mover(a, b, board)) for board, (a, b) in enumerate(pairs)
    )
    return RoundPairing(tables=tables, byes=tuple(byes))


def table_sizes(count: int, table_size: int) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of ``table_size`` (and a few of one less).

    Returns the table sizes, largest first, and how many players must sit out with
    a bye because no mix of the two sizes seats them all (e.g. 5 players, tables of 4).
    """
    if table_size < 2:
        raise ValueError("tables seat at least 2 players")
    smaller = table_size - 1
    for byes in range(count + 1):
        seated = count - byes
        if seated == 0:
            return [], byes
        tables = -(-seated // table_size)
        short = tables * table_size - seated
        if smaller >= 2 and short <= tables:
            return [table_size] * (tables - short) + [smaller] * short, byes
        if short == 0:
            return [table_size] * tables, byes
    return [], count


def _table_cost(table: Sequence[Competitor], rematch_weight: int) -> int:
    """Squared score gaps of every two table-mates, plus ``rematch_weight`` per repeated pair."""
    cost = 0
    for a, b in combinations(table, 2):
        if b.id in a.opponents:
            cost += rematch_weight
        gap = _half_points(a.score) - _half_points(b.score)
        cost += gap * gap
    return cost


def _swaps_improve(tables: list[list[Competitor]], rematch_weight: int) -> int:
    """Swap players between tables (in place) while a swap lowers the cost; returns the cost."""
    costs = [_table_cost(t, rematch_weight) for t in tables]
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for x in range(len(tables[i])):
                for y in range(len(tables[j])):
                    ti = [*tables[i][:x], tables[j][y], *tables[i][x + 1 :]]
                    tj = [*tables[j][:y], tables[i][x], *tables[j][y + 1 :]]
                    ci, cj = _table_cost(ti, rematch_weight), _table_cost(tj, rematch_weight)
                    if ci + cj < costs[i] + costs[j]:
                        tables[i], tables[j] = ti, tj
                        costs[i], costs[j] = ci, cj
                        improved = True
    return sum(costs)


#: How many tables the exact search may weigh before it keeps the best seating found.
TABLES_SEARCH_BUDGET = 200_000


def _tables_search(
    players: list[Competitor],
    sizes: list[int],
    start: list[list[Competitor]],
    start_cost: int,
    rematch_weight: int,
) -> list[list[Competitor]]:
    """Branch and bound over every seating, from the swaps' result as the bound to beat.

    Small fields are searched to the end, so a repeated table-mate appears only when
    every seating has one; big fields keep the best seating found within the budget.
    """
    best_cost, best = start_cost, start
    tried = 0

    def extend(remaining, left: dict[int, int], chosen, cost):
        nonlocal best_cost, best, tried
        if not remaining:
            best_cost, best = cost, list(chosen)
            return
        head, rest = remaining[0], remaining[1:]
        for size in sorted((s for s, n in left.items() if n), reverse=True):
            for mates in combinations(rest, size - 1):
                tried += 1
                if tried > TABLES_SEARCH_BUDGET:
                    return
                table = [head, *mates]
                total = cost + _table_cost(table, rematch_weight)
                if total < best_cost:
                    taken = {c.id for c in mates}
                    extend(
                        [c for c in rest if c.id not in taken],
                        {**left, size: left[size] - 1},
                        [*chosen, table],
                        total,
                    )

    extend(players, {size: sizes.count(size) for size in set(sizes)}, [], 0)
    return best


def swiss_tables(competitors: Sequence[Competitor], table_size: int) -> RoundPairing:
    """A Swiss round of multi-player tables: near standings together, no repeated table-mates.

    Players are dealt into tables in standing order (the smaller tables at the bottom),
    then players are swapped between tables while a swap lowers the cost, then a
    bounded exact search looks for a cheaper seating: a repeated table-mate costs
    more than any spread of scores. Byes (only when no mix of sizes
    seats everyone) go to the lowest placed players who have had the fewest byes.
    Seat order within a table puts the players owed first moves first.
    """
    players = seeding_order(competitors)
    sizes, bye_count = table_sizes(len(players), table_size)
    byes: list[Competitor] = []
    if bye_count:
        # Fewest byes first, then the lowest placed.
        candidates = sorted(enumerate(players), key=lambda item: (item[1].byes, -item[0]))
        byes = [c for _, c in candidates[:bye_count]]
        bye_ids = {c.id for c in byes}
        players = [c for c in players if c.id not in bye_ids]

    tables: list[list[Competitor]] = []
    start = 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size

    spread = (
        max(_half_points(c.score) for c in players) - min(_half_points(c.score) for c in players)
        if players
        else 0
    )
    # More than the score gaps of any whole seating, so repeats weigh first.
    rematch_weight = (spread * spread + 1) * table_size * table_size * (len(players) + 1)
    cost = _swaps_improve(tables, rematch_weight)
    tables = _tables_search(players, sizes, tables, cost, rematch_weight)
    place = {c.id: i for i, c in enumerate(seeding_order(competitors))}
    seated = tuple(
        tuple(c.id for c in sorted(t, key=lambda c: (c.balance, place[c.id]))) for t in tables
    )
    return RoundPairing(tables=seated, byes=tuple(c.id for c in byes))


def round_robin_schedule(player_ids: Sequence[int]) -> list[RoundPairing]:
    """Every round of a round robin, by the circle method, fixed at the start.

    With an odd count one player sits out each round (a bye worth nothing: everyone
    gets one). First moves alternate so each player's balance stays within -1..+1.
    """
    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    # With an odd count the empty seat is the fixed one, so skipping it never leaves
    # anyone two first moves ahead.
    ring: list[int | None] = [None, *ids] if len(ids) % 2 else list(ids)
    count = len(ring)
    # Turning the circle by half its length each round moves every player between the
    # upper row (who moves first) and the lower one, which keeps first moves balanced.
    turn = count // 2
    rounds = []
    for number in range(count - 1):
        circle = [ring[1 + (j + number * turn) % (count - 1)] for j in range(count - 1)]
        order = [ring[0], *circle]
        tables = []
        byes = []
        for board in range(count // 2):
            a, b = order[board], order[count - 1 - board]
            if a is None or b is None:
                byes.append(b if a is None else a)
                continue
            # The fixed player has no row to change, so they alternate round by round.
            swap = board == 0 and number % 2 == 1
            tables.append((b, a) if swap else (a, b))
        rounds.append(RoundPairing(tables=tuple(tables), byes=tuple(byes)))
    return rounds


@dataclass(frozen=True)
class ArenaWaiting:
    """A player waiting for an arena game: their standing, whom they played, how long they wait."""

    id: int
    score: float = 0.0
    rating: float = 0.0
    last_opponent: int | None = None
    firsts: int = 0
    seconds: int = 0
    #: Games played in the event so far, and how many of them against each opponent.
    games: int = 0
    met: Mapping[int, int] = field(default_factory=dict, compare=False)
    #: Seconds since their last game ended (or the event began).
    waited: float = 0.0


def arena_pair_cap(games: int, opponents: int) -> int | None:
    """The most games a player who has played ``games`` may have against any one opponent.

    A fair share of their games (one in ``opponents``) plus one; ``None`` (no cap) when
    there is only one opponent to play.
    """
    if opponents <= 1:
        return None
    return -(-(games + 1) // opponents) + 1


def _arena_refused(a: ArenaWaiting, b: ArenaWaiting, opponents: int, hold: float) -> bool:
    """Whether ``a`` and ``b`` wait rather than play each other while others will be free soon.

    Refused: a pair that would go past either player's cap, and (until one of them has
    waited ``hold`` seconds) a pair who have just played each other.
    """
    for one, other in ((a, b), (b, a)):
        cap = arena_pair_cap(one.games, opponents)
        if cap is not None and one.met.get(other.id, 0) + 1 > cap:
            return True
    rematch = a.last_opponent == b.id or b.last_opponent == a.id
    return rematch and max(a.waited, b.waited) < hold


def arena_pair(
    waiting: Sequence[ArenaWaiting],
    ranked: Sequence[int],
    *,
    others_busy: int = 0,
    hold: float = 0.0,
) -> list[tuple[int, int]]:
    """Pair waiting arena players near each other in the standings, fairly (lichess's arena).

    ``ranked`` is the whole standings order (ids), which decides who is near whom.
    ``others_busy`` counts the players still in the event who are at a board now: while
    there are any, someone will be free soon, so a pair is held back rather than paired
    when it would repeat the pair's last game (for up to ``hold`` seconds of waiting) or
    go past either player's cap of games against one opponent (``arena_pair_cap``).
    With nobody else to come, everyone waiting is paired, rematches only where
    unavoidable. An odd player out keeps waiting for the next finished game. Each pair
    is in seat order: the one with fewer first moves goes first.
    """
    position = {pid: i for i, pid in enumerate(ranked)}
    pool = sorted(waiting, key=lambda w: (position.get(w.id, len(position)), w.id))
    opponents = len(pool) + others_busy - 1
    far = len(ranked) + len(pool) + 1
    near_max = far * far
    rematch_weight = near_max * (len(pool) + 1)
    graph = nx.Graph()
    for a, b in combinations(pool, 2):
        if others_busy and _arena_refused(a, b, opponents, hold):
            continue
        gap = abs(position.get(a.id, far) - position.get(b.id, far))
        weight = near_max - min(gap, far) ** 2
        if a.last_opponent != b.id and b.last_opponent != a.id:
            weight += rematch_weight
        graph.add_edge(a.id, b.id, weight=weight)
    by_id = {w.id: w for w in pool}
    pairs = []
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        a, b = by_id[u], by_id[v]
        a_balance, b_balance = a.firsts - a.seconds, b.firsts - b.seconds
        if (b_balance, position.get(b.id, far)) < (a_balance, position.get(a.id, far)):
            a, b = b, a
        pairs.append((a.id, b.id))
    pairs.sort(key=lambda pair: min(position.get(pair[0], far), position.get(pair[1], far)))
    return pairs


def arena_points(outcomes: Iterable[str]) -> list[tuple[int, bool]]:
    """Points per arena game in play order, and whether the player was on a streak.

    ``outcomes`` are ``"win"``, ``"draw"`` or ``"loss"``. A win is 2, a draw 1; after two
    wins in a row every game is worth double until one is not won (lichess's streak).
    """
    base = {"win": 2, "draw": 1, "loss": 0}
    points = []
    wins_in_row = 0
    for outcome in outcomes:
        if outcome not in base:
            raise ValueError(f"unknown outcome {outcome!r}")
        on_fire = wins_in_row >= 2
        points.append((base[outcome] * (2 if on_fire else 1), on_fire))
        wins_in_row = wins_in_row + 1 if outcome == "win" else 0
    return points


def place_points(places: Sequence[int], points_by_place: Sequence[float]) -> list[float]:
    """Each player's points from their finishing places (1 is first; equal places share).

    Players tied on a place split the points of the places they span: two tied for
    first at a 4-player table with 3/2/1/0 get 2.5 each.
    """
    if len(points_by_place) < len(places):
        raise ValueError("fewer places scored than players at the table")
    order = sorted(places)
    result = []
    for place in places:
        first = order.index(place)
        tied = order.count(place)
        result.append(sum(points_by_place[first : first + tied]) / tied)
    return result
