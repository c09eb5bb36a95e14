"""What the rest of the house needs to know about a game, stated once by its engine module.

Each game module ends with one descriptor, ``GAME = GameDefinition(...)``, the way
python-chess describes each variant in one class: its name and title, how many seats,
the rule options the lobby offers, whether casual takebacks exist, how the final ranks
follow from the engine's score, what a viewer may see of a move, its bots and analyst,
and its refusal messages. ``engine.games`` lists the descriptors; the site derives its
game kinds, forms, seat counts, titles, ranking and validation from them, and
``engine.bots`` and ``engine.analysis`` reach each game's bots and analyst through them,
instead of restating any of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from engine.errors import NotationError, add_messages, gettext_noop

#: How a sentence says a range of players (``2 to 4``).
SEATS_RANGE = gettext_noop("%(fewest)s to %(most)s")


@dataclass(frozen=True)
class RuleOption:
    """One optional rule a table can be created with, as the lobby offers it.

    Every option offered today has two values, shown as a box to tick: ``choices`` is
    ``(unticked, ticked)`` as the engine's ``Options`` JSON spells them, ``default`` is
    the published rule. ``field`` names the lobby's form field when it differs from
    ``name`` (Topiary's ``tiebreak`` is the box "Ties share the win", ``share_ties``).
    """

    name: str
    label: str
    help: str
    default: Any = False
    choices: tuple[Any, Any] = (False, True)
    field: str = ""

    def __post_init__(self):
        if len(self.choices) != 2 or self.default not in self.choices:
            raise ValueError(f"option {self.name}: two choices, the default one of them")

    @property
    def field_name(self) -> str:
        """The lobby form's field for this option."""
        return self.field or self.name

    @property
    def ticked(self) -> bool:
        """Whether the lobby's box starts ticked (the default is the ticked choice)."""
        return self.default == self.choices[1]

    def value(self, ticked: bool) -> Any:
        """The option's value in the engine's ``Options`` JSON for a ticked or unticked box."""
        return self.choices[1] if ticked else self.choices[0]


@dataclass(frozen=True)
class ScoreColumn:
    """One column of a game's final score table: the score entry's ``key`` under ``label``.

    ``flag`` (when set) is the text shown for a true value instead of the value itself.
    """

    key: str
    label: str
    flag: str = ""


#: ``rank_key(entry, seat, first_player, options)``: how good a seat's final score is,
#: compared among the seats that neither forfeited nor differ in winning (higher is better,
#: equal keys share a rank).
RankKey = Callable[[dict, int, int, dict], tuple]

#: ``player(view, rng, budget, iterations) -> str``: a bot's next decision from its view
#: (``engine.bots.choose_move`` checks the view and the level first).
BotPlayer = Callable[[Any, Any, float, Any], str]

#: ``move_facts(state, move) -> dict | None``: what ``move`` played in ``state`` did that every
#: viewer may know and its notation does not say (Wizards' Garden's set-up seeds and
#: harvests), as JSON; None when there is nothing to say.
MoveFacts = Callable[[Any, str], "dict | None"]

#: ``analyst(view, played, rng) -> {move: [value, ...]} | None``: per candidate move of the
#: turn (``played`` among them), its value for the mover in points, one per sample (deals
#: shared by every candidate, so differences are paired); None for a turn not analysed.
Analyst = Callable[[Any, str, Any], "dict[str, list[float]] | None"]


@dataclass(frozen=True)
class GameDefinition:
    """A game as the house sees it; its engine module (``module``) plays the rules.

    ``seats`` is the (fewest, most) players; when they differ, ``seats_option`` names the
    rule option holding the count (Topiary's ``players``). ``aliases`` are other names the
    command line accepts (``wizards-garden``). ``sight_lines``: the states offer
    ``sight_lines()``, each visitor and what it sees, shown at the end and in replays.
    ``end_reasons``: every reason, in words, the states give for a game being over
    (``end_reason()``); empty when they give none. ``bots``: a ``BotPlayer`` per level
    above ``random`` (which plays any game); ``bot_ratings``: each house level's measured
    strength on the Elo scale (``bench/levels.py``: greedy anchored at 1500), the one place
    the site takes it from (empty: not measured); ``analyst``: the post-game analysis of one
    turn (None: turns are not analysed); ``move_facts``: what a move did beyond its
    notation, public to every viewer (None: nothing more to say). ``messages``: the
    English of each error code the game raises, added to ``engine.errors.MESSAGES`` when
    the game is defined. ``words``: any other English word the game hands the site to
    show (Topiary's tile names).

    Every English text here (option labels and help, score columns, end reasons, words,
    messages) is marked with ``engine.errors.gettext_noop`` where the game writes it, so
    the site's catalogue gathers it from the game's own package (docs/I18N.md).
    """

    name: str
    title: str
    module: ModuleType
    seats: tuple[int, int]
    rank_key: RankKey
    seats_option: str | None = None
    rule_options: tuple[RuleOption, ...] = ()
    casual_takebacks: bool = False
    score_columns: tuple[ScoreColumn, ...] = ()
    sight_lines: bool = False
    end_reasons: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    is_take_step: Callable[[str], bool] | None = None
    bots: Mapping[str, BotPlayer] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    bot_ratings: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    analyst: Analyst | None = None
    move_facts: MoveFacts | None = None
    messages: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def __post_init__(self):
        low, high = self.seats
        if not 2 <= low <= high:
            raise ValueError(f"{self.name}: seats {self.seats} is not a (fewest, most) pair")
        if low != high and self.seats_option is None:
            raise ValueError(f"{self.name}: a seat range needs the option that holds the count")
        # An error is built from its code wherever it is raised, so the game's codes are
        # known from the moment the game is.
        add_messages(self.messages)

    @property
    def seat_choices(self) -> range:
        """Every number of players the game can be set up for."""
        return range(self.seats[0], self.seats[1] + 1)

    @property
    def seats_vary(self) -> bool:
        """True when tables of this game come in more than one size."""
        return self.seats[0] != self.seats[1]

    @property
    def seats_text(self) -> str:
        """``2`` or ``2 to 4``: the numbers of players, as a sentence says them."""
        low, high = self.seats
        return str(low) if low == high else SEATS_RANGE % {"fewest": low, "most": high}

    def seat_count(self, options: dict) -> int:
        """How many players sit at a table with these options (the engine's Options JSON)."""
        if self.seats_option is None:
            return self.seats[0]
        return options.get(self.seats_option, self.seats[0])

    def table_options(self, players: int, options: dict | None) -> dict:
        """Every rule option of a table of ``players``, as the engine's Options JSON.

        ``NotationError`` (from the engine where it judges) for an unknown or bad option
        or a number of players the game is not for.
        """
        options = dict(options or {})
        # Said as a player would (``Topiary is for 2 to 4 players``), not as the option's
        # JSON check would name its field.
        if players not in self.seat_choices:
            raise NotationError(code="players_not_for_game", game=self.title, seats=self.seats_text)
        if self.seats_option is not None:
            options[self.seats_option] = players
        return self.module.Options.from_json(options).to_json()

    def move_seen_by(
        self, move: str, *, mover: int, viewer: int | None, took: str | None, over: bool
    ) -> str:
        """The form of a recorded move ``viewer`` may see (the module's ``move_seen_by``)."""
        return self.module.move_seen_by(move, mover=mover, viewer=viewer, took=took, over=over)

    def end_reason(self, state) -> str | None:
        """Why the game in ``state`` is over, in words (``the basket is empty``), if it says."""
        return state.end_reason() if self.end_reasons and state.is_over else None

    def facts_of(self, state, move: str) -> dict | None:
        """What ``move`` (legal in ``state``) did beyond its notation, for every viewer, or None.

        Only for what anyone watching the table sees (never a hidden tile): the site keeps it
        with the move and sends it to every viewer as it is.
        """
        return None if self.move_facts is None else self.move_facts(state, move)

    def takes_two_steps(self, move: str) -> bool:
        """True for the first step of a turn played in two (a Topiary take, ``c5:S c4``)."""
        return self.is_take_step is not None and self.is_take_step(move)

    def final_ranks(
        self,
        scores: Sequence[dict],
        winners: Sequence[int],
        *,
        first_player: int,
        options: dict,
        forfeited: Sequence[bool],
    ) -> list[int]:
        """Each seat's final rank (1 is first; equal ranks share a place), in seat order.

        A seat that forfeited ranks below every seat that did not; then the engine's
        winners rank above the rest; then the game's ``rank_key`` of the score entry
        (``scores``: the engine's score JSON entries, one per seat).
        """
        entries = {entry["seat"]: entry for entry in scores}
        keys = [
            (
                not forfeited[seat],
                seat in winners,
                *self.rank_key(entries[seat], seat, first_player, options),
            )
            for seat in range(len(forfeited))
        ]
        return [1 + sum(other > key for other in keys) for key in keys]
