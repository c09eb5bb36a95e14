"""Tournament formats as objects: one class per format, listed in ``FORMATS``.

Each format says, for its own kind of event, which settings it takes and how they
are checked, how few players it needs, how the rounds are made at the start and
after each round, what a game, a bye and a forfeit are worth, and which tie-breaks
order its standings. Everything is decided over the pure ``pairing`` and
``standings`` modules: nothing here reads or writes the database. The services
store what these objects decide; the model's choices, the create form and the
pages read their names, labels and flags from here (the way python-chess lists
its variants), so a new format is one class added to ``FORMATS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from tournaments import pairing as rules
from tournaments import standings as tables

#: The most rounds a Swiss event may have.
MAX_ROUNDS = 30
#: The most players any event may allow.
MAX_PLAYERS = 500
#: A round robin plays everyone, so its field stays small.
ROUND_ROBIN_MAX_PLAYERS = 10
#: How long an arena may run, in minutes.
ARENA_MINUTES = (1, 12 * 60)
#: The shortest and longest hold of an arena pair who just met (seconds).
ARENA_HOLD = (10, 60)
#: 2-player games score 1 / 0 (a draw or shared win splits it).
TWO_PLAYER_POINTS = (1, 0)
#: A win without a game: a 2-player bye, or a forfeit by an opponent who withdrew.
WIN_POINTS = 1.0


@dataclass(frozen=True)
class Outcome:
    """What one seat of a finished (or aborted) game earns in the event."""

    points: float
    #: Arena: the player was on a winning streak, so the game counted double.
    on_fire: bool = False


@dataclass(frozen=True)
class Record:
    """Everything scored so far, in the shapes the standings functions take."""

    #: Every entrant in seeding order (the last resort between equals).
    players: Sequence[int]
    results: Sequence[tables.TableResult] = ()
    #: Points each player got without a game (byes and forfeits).
    bye_points: Mapping[int, float] | None = None
    #: Each finished game once from each player's side.
    games: Sequence[tables.ArenaGame] = ()
    #: Ratings at the start, for performance.
    ratings: Mapping[int, float] | None = None


#: A seat's earlier outcomes in the event, oldest first ("win", "draw" or "loss").
History = Callable[[int], Sequence[str]]


def points_table(value: Any, size: int) -> list[float]:
    """A validated points-per-place list for tables of ``size`` (``ValueError`` says why not)."""
    if not isinstance(value, list | tuple) or len(value) != size:
        raise ValueError(
            ngettext(
                "give %(size)s number, one per place, for tables of %(size)s",
                "give %(size)s numbers, one per place, for tables of %(size)s",
                size,
            )
            % {"size": size}
        )
    try:
        points = [float(p) for p in value]
    except (TypeError, ValueError):
        raise ValueError(_("points per place must be numbers")) from None
    if any(p < 0 or p > 100 for p in points):
        raise ValueError(_("points per place must be between 0 and 100"))
    if any(a < b for a, b in pairwise(points)):
        raise ValueError(_("a better place cannot score fewer points than a worse one"))
    return points


class TournamentFormat:
    """What every format answers; the defaults describe a 2-player event in rounds.

    ``tournament`` arguments are anything with the ``Tournament`` model's fields
    (``table_size``, ``rounds``, ``duration_minutes``, ``place_points``).
    """

    #: Stored in ``Tournament.format``; never change it once events use it.
    name: str = ""
    #: The format's name for people, translated where it is shown.
    label: str = ""
    #: Games are played in numbered rounds; False: they start whenever players are free.
    has_rounds: bool = True
    #: Every round is paired at the start (round robin), not from the standings so far.
    fixed_schedule: bool = False
    #: The creator chooses the number of rounds.
    chooses_rounds: bool = False
    #: The event runs for ``duration_minutes`` rather than a number of rounds.
    timed: bool = False
    #: Points per finishing place can be set (multi-player tables).
    sets_place_points: bool = False
    #: Players per game the format allows.
    table_sizes: tuple[int, ...] = (2,)
    most_players: int = MAX_PLAYERS
    #: The standings' tie-break columns, in the order they apply (names of people and
    #: systems stay as they are; descriptions are translated).
    tiebreak_names: tuple[str, ...] = ("Buchholz", "Sonneborn-Berger")
    #: Each tie-break's short column heading (so the standings fit a phone) and what it is.
    tiebreak_shorts: tuple[str, ...] = (
        pgettext_lazy("Buchholz, as a column heading", "BH"),
        pgettext_lazy("Sonneborn-Berger, as a column heading", "SB"),
    )
    tiebreak_help: tuple[str, ...] = (
        gettext_lazy("the sum of the opponents' points."),
        gettext_lazy(
            "the points of the opponents beaten, plus half the points of the opponents drawn."
        ),
    )
    #: Why a number of rounds is refused, for formats that do not take one.
    rounds_refused: str = ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    # Settings ---------------------------------------------------------------

    def min_players(self, table_size: int) -> int:
        """The fewest active players the event starts (and goes on) with."""
        return 2

    def validate(self, settings: Mapping[str, Any]) -> tuple[dict[str, str], dict]:
        """Errors by field for the settings this format owns, and the points per place to store.

        ``settings`` holds ``table_size``, ``rounds``, ``duration_minutes``,
        ``max_players`` and ``place_points`` as given. Which game kinds may play at
        which table sizes is the game's business, checked by the caller.
        """
        errors: dict[str, str] = {}
        rounds, minutes = settings["rounds"], settings["duration_minutes"]
        if self.chooses_rounds:
            if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
                errors["rounds"] = ngettext(
                    "Choose between 1 and %(most)s round.",
                    "Choose between 1 and %(most)s rounds.",
                    MAX_ROUNDS,
                ) % {"most": MAX_ROUNDS}
        elif rounds is not None:
            errors["rounds"] = str(self.rounds_refused)
        if self.timed:
            low, high = ARENA_MINUTES
            if minutes is None or not low <= minutes <= high:
                errors["duration_minutes"] = ngettext(
                    "An arena lasts %(low)s to %(high)s minute.",
                    "An arena lasts %(low)s to %(high)s minutes.",
                    high,
                ) % {"low": low, "high": high}
        elif minutes is not None:
            errors["duration_minutes"] = _("Only an arena has a duration.")
        fewest, most = self.min_players(settings["table_size"]), self.most_players
        if settings["max_players"] is None or not fewest <= settings["max_players"] <= most:
            errors["max_players"] = ngettext(
                "Allow between %(fewest)s and %(most)s player.",
                "Allow between %(fewest)s and %(most)s players.",
                most,
            ) % {"fewest": fewest, "most": most}
        place_points: dict[str, list[float]] = {}
        if self.sets_place_points:
            try:
                place_points = self.place_points_for(
                    settings["table_size"], settings["place_points"] or {}
                )
            except ValueError as error:
                errors["place_points"] = str(error)
        elif settings["place_points"]:
            errors["place_points"] = _("Points per place are for Swiss tables only.")
        return errors, place_points

    def place_points_for(self, table_size: int, given: Mapping[str, Any]) -> dict:
        """The points per place to store; only formats that ``sets_place_points`` have any."""
        return {}

    # Describing an event ----------------------------------------------------

    def title(self, tournament) -> str:
        """The format as the event's page names it."""
        return str(self.label)

    def length(self, tournament) -> str:
        """How long the event runs, in words."""
        count = tournament.rounds
        return ngettext("%(count)s round", "%(count)s rounds", count) % {"count": count}

    # Running an event -------------------------------------------------------

    def first_rounds(
        self, competitors: Sequence[rules.Competitor], table_size: int
    ) -> list[rules.RoundPairing]:
        """The rounds stored at the start, in order; the first begins at once."""
        return [self.pair_round(competitors, table_size)]

    def pair_round(
        self, competitors: Sequence[rules.Competitor], table_size: int
    ) -> rules.RoundPairing:
        """The next round, paired from the standings so far."""
        return rules.swiss_pair(competitors)

    def pair_waiting(
        self,
        waiting: Sequence[rules.ArenaWaiting],
        ranked: Sequence[int],
        *,
        others_busy: int = 0,
        hold: float = 0.0,
    ) -> list[tuple[int, int]]:
        """Games for the players not at a board (formats without rounds); ``others_busy``
        players are at a board, and a pair may be held back ``hold`` seconds for them."""
        raise NotImplementedError(f"{self.label} events are played in rounds")

    def hold_seconds(self, tournament) -> float:
        """How long a waiting pair may be held back rather than repeat a game (no rounds)."""
        return 0.0

    def bye_points(self, tournament) -> float:
        """What sitting out a round is worth."""
        return WIN_POINTS

    def forfeit_points(self, tournament) -> float:
        """What a player scores when the opponent of a stored pairing has withdrawn."""
        return WIN_POINTS

    def points_by_place(self, tournament, table_size: int) -> Sequence[float]:
        """Points per finishing place at a table of ``table_size``."""
        return TWO_PLAYER_POINTS

    def score_game(
        self, tournament, places: Sequence[int | None], history: History
    ) -> list[Outcome]:
        """Each seat's points from its finishing place (``None`` everywhere: game aborted).

        An aborted game scores nothing for anyone. ``history(seat)`` gives that
        seat's earlier outcomes, for formats whose points depend on them.
        """
        if None in places:
            return [Outcome(0.0) for _ in places]
        table = self.points_by_place(tournament, len(places))
        return [Outcome(points) for points in rules.place_points(places, table)]

    def standings(self, record: Record) -> list[tables.Standing]:
        """The standings, best first, with this format's tie-breaks."""
        return tables.swiss_standings(record.players, record.results, record.bye_points)


class Swiss(TournamentFormat):
    """2-player games, each round paired from the standings; a bye is worth a win."""

    name = "swiss"
    label = gettext_lazy("Swiss")
    chooses_rounds = True


class SwissTables(TournamentFormat):
    """Swiss of multi-player tables: places score points, table-mates break ties."""

    name = "swiss_tables"
    label = gettext_lazy("Swiss tables")
    chooses_rounds = True
    sets_place_points = True
    table_sizes = (3, 4)
    tiebreak_names = (gettext_lazy("Table-mates' points"),)
    tiebreak_shorts = (pgettext_lazy("table-mates' points, as a column heading", "TM"),)
    tiebreak_help = (
        gettext_lazy("the sum of the points of everyone met at a table, once per table shared."),
    )

    def min_players(self, table_size: int) -> int:
        return table_size

    def place_points_for(self, table_size: int, given: Mapping[str, Any]) -> dict:
        """Full tables and tables of one less; the defaults fill in what is not given."""
        if table_size not in self.table_sizes:
            # A table size this format cannot seat is refused on its own field.
            return {}
        points, problem = {}, None
        for size in (table_size, table_size - 1):
            try:
                points[str(size)] = points_table(
                    given.get(str(size), rules.DEFAULT_PLACE_POINTS[size]), size
                )
            except ValueError as error:
                problem = error
        if problem is not None:
            raise problem
        return points

    def title(self, tournament) -> str:
        return _("Swiss tables of %(size)s") % {"size": tournament.table_size}

    def pair_round(self, competitors, table_size):
        return rules.swiss_tables(competitors, table_size)

    def bye_points(self, tournament) -> float:
        """Second place's points at a full table."""
        return float(tournament.place_points[str(tournament.table_size)][1])

    def points_by_place(self, tournament, table_size: int) -> Sequence[float]:
        return tournament.place_points[str(table_size)]

    def standings(self, record: Record) -> list[tables.Standing]:
        return tables.tables_standings(record.players, record.results, record.bye_points)


class RoundRobin(TournamentFormat):
    """Everyone plays everyone once, on a schedule fixed at the start."""

    name = "round_robin"
    label = gettext_lazy("Round robin")
    fixed_schedule = True
    most_players = ROUND_ROBIN_MAX_PLAYERS
    rounds_refused = gettext_lazy(
        "A round robin plays everyone once: its rounds follow from the players."
    )

    def length(self, tournament) -> str:
        # The rounds are known once the players are.
        return super().length(tournament) if tournament.rounds else _("everyone plays everyone")

    def first_rounds(self, competitors, table_size):
        """The whole schedule, seeded by rating so it does not depend on who joined first."""
        return rules.round_robin_schedule([c.id for c in rules.seeding_order(competitors)])

    def pair_round(self, competitors, table_size):
        raise NotImplementedError("a round robin's rounds are all paired at the start")

    def bye_points(self, tournament) -> float:
        """Everyone sits out once with an odd count, so the sit-out is worth nothing."""
        return 0.0


class Arena(TournamentFormat):
    """Games start whenever two players are free, until the time is up; streaks count double."""

    name = "arena"
    label = gettext_lazy("Arena")
    has_rounds = False
    timed = True
    tiebreak_names = (gettext_lazy("Performance"),)
    tiebreak_shorts = (pgettext_lazy("performance rating, as a column heading", "Perf"),)
    tiebreak_help = (
        gettext_lazy(
            "the opponents' mean rating at the start, plus 400 × (wins − losses) ÷ games."
        ),
    )
    rounds_refused = gettext_lazy("An arena runs for a duration, not a number of rounds.")

    def length(self, tournament) -> str:
        count = tournament.duration_minutes
        return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": count}

    def first_rounds(self, competitors, table_size):
        raise NotImplementedError("an arena has no rounds")

    def pair_round(self, competitors, table_size):
        raise NotImplementedError("an arena has no rounds")

    def pair_waiting(self, waiting, ranked, *, others_busy=0, hold=0.0):
        return rules.arena_pair(waiting, ranked, others_busy=others_busy, hold=hold)

    def hold_seconds(self, tournament) -> float:
        """How long a pair who just met may be held back for someone else: the clock's
        initial time, between 10 s and a minute."""
        return float(min(max(tournament.clock_initial, ARENA_HOLD[0]), ARENA_HOLD[1]))

    def score_game(self, tournament, places, history):
        """2 a win, 1 a draw, doubled on a streak; a seat with no place has lost."""
        words = {1.0: "win", 0.5: "draw", 0.0: "loss"}
        outcomes = []
        for seat, place in enumerate(places):
            others = [*places[:seat], *places[seat + 1 :]]
            now = words[tables.game_outcome(place, others)]
            points, on_fire = rules.arena_points([*history(seat), now])[-1]
            outcomes.append(Outcome(points, on_fire))
        return outcomes

    def standings(self, record: Record) -> list[tables.Standing]:
        return tables.arena_standings(record.players, record.games, record.ratings or {})


#: Every format, in the order the create form lists them.
FORMATS: tuple[TournamentFormat, ...] = (Swiss(), SwissTables(), RoundRobin(), Arena())

_BY_NAME = {fmt.name: fmt for fmt in FORMATS}


def format_for(name: str) -> TournamentFormat:
    """The format stored as ``name``; ``KeyError`` for one not in ``FORMATS``."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown tournament format {name!r}") from None


def format_choices() -> list[tuple[str, str]]:
    """``(name, label)`` pairs for model and form choices."""
    return [(fmt.name, fmt.label) for fmt in FORMATS]


def only_for(applies: Callable[[TournamentFormat], bool]) -> str:
    """The formats a setting belongs to, for help texts: "Swiss and Swiss tables"."""
    labels = [str(fmt.label) for fmt in FORMATS if applies(fmt)]
    if len(labels) == 1:
        return labels[0]
    return _("%(formats)s and %(last)s") % {"formats": ", ".join(labels[:-1]), "last": labels[-1]}
