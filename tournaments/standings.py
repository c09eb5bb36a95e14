"""Standings and tie-breaks for every format, as pure functions of the finished games.

Swiss and round robin: score, then Buchholz (the sum of the opponents' scores), then
Sonneborn-Berger (the scores of the opponents beaten, plus half of those drawn).
Swiss tables: score, then the sum of the table-mates' scores. Arena: score, then
performance rating. A bye adds its points to the score and nothing to any tie-break.
Players equal on score and every tie-break share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableResult:
    """One finished table: each player's points from it (1/0.5/0 for a 2-player game)."""

    points: Mapping[int, float]


@dataclass(frozen=True)
class Standing:
    """One line of the standings table."""

    rank: int
    player: int
    score: float
    tiebreaks: tuple[float, ...]
    games: int


def _ranked(
    players: Sequence[int], score: Mapping[int, float], tiebreaks: Mapping[int, tuple], games
) -> list[Standing]:
    order = sorted(
        players, key=lambda p: (-score[p], *(-t for t in tiebreaks[p]), players.index(p))
    )
    rows: list[Standing] = []
    for position, player in enumerate(order, start=1):
        key = (score[player], tiebreaks[player])
        shared = rows and (rows[-1].score, rows[-1].tiebreaks) == key
        rows.append(
            Standing(
                rank=rows[-1].rank if shared else position,
                player=player,
                score=score[player],
                tiebreaks=tiebreaks[player],
                games=games[player],
            )
        )
    return rows


def _scores(
    players: Sequence[int], results: Iterable[TableResult], bye_points: Mapping[int, float]
) -> tuple[dict[int, float], dict[int, int]]:
    score = {p: float(bye_points.get(p, 0.0)) for p in players}
    games = dict.fromkeys(players, 0)
    for result in results:
        for player, points in result.points.items():
            score[player] = score.get(player, 0.0) + points
            games[player] = games.get(player, 0) + 1
    return score, games


def swiss_standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    bye_points: Mapping[int, float] | None = None,
) -> list[Standing]:
    """Standings of a 2-player event (Swiss or round robin): Buchholz, then Sonneborn-Berger.

    ``players`` is every entrant in seeding order (the last resort between equals);
    ``bye_points`` the points each player got from byes and forfeits.
    """
    score, games = _scores(players, results, bye_points or {})
    buchholz: dict[int, float] = defaultdict(float)
    sonneborn: dict[int, float] = defaultdict(float)
    for result in results:
        for player, points in result.points.items():
            for opponent, their_points in result.points.items():
                if opponent == player:
                    continue
                buchholz[player] += score[opponent]
                if points > their_points:
                    sonneborn[player] += score[opponent]
                elif points == their_points:
                    sonneborn[player] += score[opponent] / 2
    tiebreaks = {p: (buchholz[p], sonneborn[p]) for p in players}
    return _ranked(list(players), score, tiebreaks, games)


def tables_standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    bye_points: Mapping[int, float] | None = None,
) -> list[Standing]:
    """Standings of Swiss tables: the tie-break is the sum of every table-mate's score."""
    score, games = _scores(players, results, bye_points or {})
    mates: dict[int, float] = defaultdict(float)
    for result in results:
        for player in result.points:
            mates[player] += sum(score[other] for other in result.points if other != player)
    tiebreaks = {p: (mates[p],) for p in players}
    return _ranked(list(players), score, tiebreaks, games)


def game_outcome(place: int | None, others: Iterable[int | None]) -> float:
    """1 won, 0.5 drawn (or shared first), 0 lost, from finishing places (None: no result)."""
    if place is None:
        return 0.0
    best_other = min((p for p in others if p is not None), default=None)
    if best_other is None or place < best_other:
        return 1.0
    return 0.5 if place == best_other else 0.0


@dataclass(frozen=True)
class ArenaGame:
    """One finished arena game from one player's side: the arena points and the outcome."""

    player: int
    opponent: int
    points: int
    #: 1 won, 0.5 drawn, 0 lost: what performance rating counts.
    outcome: float


def performance_rating(outcomes: Iterable[tuple[float, float]]) -> float:
    """Performance over ``(opponent rating, outcome)`` games: their mean rating + 400 (W-L)/N."""
    games = list(outcomes)
    if not games:
        return 0.0
    mean = sum(rating for rating, _ in games) / len(games)
    margin = sum(2 * outcome - 1 for _, outcome in games)
    return round(mean + 400 * margin / len(games))


def arena_standings(
    players: Sequence[int], games: Sequence[ArenaGame], ratings: Mapping[int, float]
) -> list[Standing]:
    """Arena standings: points (streaks included), then performance rating."""
    score = dict.fromkeys(players, 0.0)
    count = dict.fromkeys(players, 0)
    faced: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for game in games:
        score[game.player] = score.get(game.player, 0.0) + game.points
        count[game.player] = count.get(game.player, 0) + 1
        faced[game.player].append((ratings.get(game.opponent, 0.0), game.outcome))
    tiebreaks = {p: (performance_rating(faced[p]),) for p in players}
    return _ranked(list(players), score, tiebreaks, count)
