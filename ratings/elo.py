"""The Elo arithmetic, free of Django: expected scores, K factors and the multi-player split.

docs/RATINGS.md walks through these formulas with worked numbers; the tests
compute the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Every rating starts here.
INITIAL_RATING = 1500.0
#: A rating is provisional (shown with "?", K = ``K_PROVISIONAL``) until this many rated games.
PROVISIONAL_GAMES = 20
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0


def expected_score(rating: float, opponent: float) -> float:
    """The score expected against ``opponent``: 1 / (1 + 10^((opponent - rating) / 400))."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def is_provisional(games: int) -> bool:
    """True while a player has fewer than ``PROVISIONAL_GAMES`` rated games of a kind."""
    return games < PROVISIONAL_GAMES


def k_factor(games: int) -> float:
    """K for a player who has played ``games`` rated games of the kind before this one."""
    return K_PROVISIONAL if is_provisional(games) else K_ESTABLISHED


def pair_score(rank: int, opponent_rank: int) -> float:
    """The score of one virtual game between two seats decided by final rank (1 is first).

    A better (smaller) rank wins; an equal rank is a shared victory or a draw.
    """
    if rank < opponent_rank:
        return 1.0
    if rank > opponent_rank:
        return 0.0
    return 0.5


@dataclass(frozen=True)
class Entrant:
    """One seat of a rated game: the player's rating and rated games before it, and final rank."""

    rating: float
    games: int
    rank: int


@dataclass(frozen=True)
class Outcome:
    """What the game does to one entrant's rating.

    ``score`` and ``expected`` are averaged over the opponents (0..1), so
    ``after = before + k * (score - expected)`` in every game size.
    """

    before: float
    after: float
    k: float
    score: float
    expected: float

    @property
    def change(self) -> float:
        """``after - before``."""
        return self.after - self.before


def _outcome(rating: float, games: int, score: float, expected: float) -> Outcome:
    k = k_factor(games)
    return Outcome(
        before=rating, after=rating + k * (score - expected), k=k, score=score, expected=expected
    )


def rate_game(entrants: list[Entrant]) -> list[Outcome]:
    """New ratings for every seat of a finished game, in seat order.

    Each pair of seats is one virtual game decided by rank; each player's K is
    divided by the number of opponents. Two seats give standard Elo. All
    expectations use the ratings from before the game.
    """
    if len(entrants) < 2:
        raise ValueError(f"a rated game needs at least 2 players, got {len(entrants)}")
    opponents = len(entrants) - 1
    outcomes = []
    for me in entrants:
        others = [other for other in entrants if other is not me]
        score = sum(pair_score(me.rank, other.rank) for other in others) / opponents
        expected = sum(expected_score(me.rating, other.rating) for other in others) / opponents
        outcomes.append(_outcome(me.rating, me.games, score, expected))
    return outcomes


def rate_puzzle(rating: float, games: int, puzzle_rating: float, solved: bool) -> Outcome:
    """A puzzle attempt as one game against the puzzle: solved is a win, failed a loss.

    ``games`` counts the player's earlier rated puzzle attempts (for K).
    """
    return _outcome(rating, games, 1.0 if solved else 0.0, expected_score(rating, puzzle_rating))
