import contextlib
import functools
import threading
from datetime import timedelta

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from engine.games import all_games, game_definition, game_names
from kit.text import clock_notation

#: How long a player in a live game may be gone before an opponent may claim the win.
GONE_CLAIM_AFTER = timedelta(seconds=60)


def game_kind_choices() -> list[tuple[str, str]]:
    """Every registered game (run-time ones included) as ``(kind, title)``, for forms."""
    return [(game.name, game.title) for game in all_games()]


def validate_game_kind(kind: str) -> None:
    """Refuse a kind that no registered game goes by (``engine.games`` judges, not a migration)."""
    if kind not in game_names():
        raise ValidationError(
            gettext_lazy("%(kind)s is not a game here: one of %(kinds)s."),
            code="unknown_game",
            params={"kind": repr(kind), "kinds": ", ".join(game_names())},
        )


class GameKindField(models.CharField):
    """A game's kind, stored as the game's name.

    No ``choices=``: the registry (``engine.games``) is asked when a value is validated and
    when a form offers the games, so a game registered at run time (``register``) is stored,
    offered and judged without a migration, and adding a game writes none.
    """

    default_validators = [validate_game_kind]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 20)
        super().__init__(*args, **kwargs)

    def kind_choices(self) -> list[tuple[str, str]]:
        """What a form offers: the registered games."""
        return game_kind_choices()

    def formfield(self, **kwargs):
        # Field.formfield, not CharField's: a choice field takes no max_length.
        return models.Field.formfield(
            self, **{"form_class": forms.ChoiceField, "choices": self.kind_choices, **kwargs}
        )


def days_text(days: int) -> str:
    """``1 day``, ``3 days``: a correspondence game's days per move in the reader's language."""
    return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}


#: How a finished game ended (``Game.termination``), as its replay says it.
TERMINATIONS = {
    "normal": pgettext_lazy("game ended", "normal"),
    "resign": pgettext_lazy("game ended", "resign"),
    "time": pgettext_lazy("game ended", "time"),
    "gone": pgettext_lazy("game ended", "gone"),
    "abort": pgettext_lazy("game ended", "abort"),
}


class TimeControl(models.TextChoices):
    """The time controls a table can be created with: live clocks or days per move."""

    BULLET = "1+0", gettext_lazy("1+0 (live)")
    BLITZ = "3+2", gettext_lazy("3+2 (live)")
    RAPID = "5+3", gettext_lazy("5+3 (live)")
    CLASSICAL = "10+5", gettext_lazy("10+5 (live)")
    ONE_DAY = "1d", gettext_lazy("1 day per move")
    THREE_DAYS = "3d", gettext_lazy("3 days per move")

    def fields(self) -> dict:
        """The Game fields this time control sets."""
        if self.value.endswith("d"):
            return {
                "clock_initial": None,
                "clock_increment": None,
                "correspondence_days": int(self.value[:-1]),
            }
        minutes, increment = self.value.split("+")
        return {
            "clock_initial": int(minutes) * 60,
            "clock_increment": int(increment),
            "correspondence_days": None,
        }


class RowWrites:
    """``write(fields)``: what ``save(update_fields=fields)`` writes, as one UPDATE.

    A move writes its game's row and its seat's every ply, and Django builds each of those
    statements afresh: about half a millisecond of CPU apiece
    (docs/decisions/0006-a-process-holds-its-games.md). This writes the same values (each
    field's ``pre_save`` and ``get_db_prep_save``) with the statement built once per model and
    set of fields. No signals are sent; the site connects none to these models.
    """

    def write(self, fields: tuple[str, ...] | list[str]) -> None:
        deferred = getattr(_deferred, "writes", None)
        if deferred is not None:
            deferred.append((self, tuple(fields)))
            return
        statement, columns = _update_statement(type(self), tuple(fields), connection.vendor)
        with connection.cursor() as cursor:
            cursor.execute(statement, [*self.values_to_write(columns), self.pk])
            if cursor.rowcount != 1:
                raise DatabaseError(f"{type(self).__name__} {self.pk} was not written")

    def values_to_write(self, columns) -> list:
        """The database's values of ``columns`` (model fields), as ``save`` would write them."""
        return [
            field.get_db_prep_save(field.pre_save(self, False), connection) for field in columns
        ]


_deferred = threading.local()


@contextlib.contextmanager
def writes_deferred():
    """Collect this thread's ``RowWrites.write`` calls as ``(instance, fields)`` instead of
    running them, for a caller that writes them all in one statement (``games.held``)."""
    _deferred.writes = writes = []
    try:
        yield writes
    finally:
        _deferred.writes = None


def set_clause(model, fields: tuple[str, ...]) -> tuple[str, list]:
    """(``"column" = %s, ...`` for ``fields`` of ``model``, the fields themselves): what an
    UPDATE of those fields sets, with its values from ``RowWrites.values_to_write``."""
    quote = connection.ops.quote_name
    columns = [model._meta.get_field(name) for name in fields]
    return ", ".join(f"{quote(field.column)} = %s" for field in columns), columns


@functools.cache
def _update_statement(model, fields: tuple[str, ...], vendor: str) -> tuple[str, list]:
    quote = connection.ops.quote_name
    assignments, columns = set_clause(model, fields)
    return (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {quote(model._meta.pk.column)} = %s",
        columns,
    )


class Game(RowWrites, models.Model):
    """One game: its table of seats, its options and deal seed, and the moves played so far.

    ``state``, ``initial``, ``moves`` and ``record`` hold hidden information
    (face-down identities, hands, the tiles taken). They never leave the server
    while the game is running: everything a client sees is built from an engine view.
    """

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        ACTIVE = "active", gettext_lazy("In progress")
        FINISHED = "finished", gettext_lazy("Finished")
        ABORTED = "aborted", gettext_lazy("Aborted")

    kind = GameKindField()
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    rated = models.BooleanField(default=True)
    # Live games: initial seconds plus increment; correspondence: days per move.
    clock_initial = models.PositiveIntegerField(null=True, blank=True)
    clock_increment = models.PositiveIntegerField(null=True, blank=True)
    correspondence_days = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    # A challenge: a table only this player may join.
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ply = models.PositiveIntegerField(default=0)
    # The full position now and at the deal, as the engine's JSON.
    state = models.JSONField(null=True, blank=True)
    initial = models.JSONField(null=True, blank=True)
    # One entry per ply: {"seat": int, "move": notation, "took": tile or null}, and "facts"
    # when the game says what the move did beyond its notation (GameDefinition.facts_of).
    moves = models.JSONField(default=list, blank=True)
    # Set when the game is scored: the engine's game record (NOTATION.md).
    record = models.JSONField(null=True, blank=True)
    # {"winners": [seat, ...], "ranks": [rank per seat], "scores": engine scores}.
    result = models.JSONField(null=True, blank=True)
    termination = models.CharField(max_length=20, blank=True)
    # When the player to move started thinking, and when they run out of time.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The seat to move is played by a bot (a bot user, or a stand-in for a forfeited seat).
    bot_to_move = models.BooleanField(default=False)
    # Casual Wizards' Garden takebacks: how many so far (frames order by (takebacks, ply)),
    # the ply a standing offer was made at, and the ply the last takeback returned to.
    takebacks = models.PositiveIntegerField(default=0)
    takeback_offer = models.PositiveIntegerField(null=True, blank=True)
    takeback_ply = models.PositiveIntegerField(null=True, blank=True)
    # A tournament's game: a player who never moves loses it (no short-game abort), and
    # it has no rematch.
    in_event = models.BooleanField(default=False)
    # Rematch (a finished game): the seats that asked for it or accepted it so far (empty
    # when none stands), and the new game once every player accepted.
    rematch_offer = models.JSONField(default=list, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    # Time away (docs/subsystems/accounts.md, "Vacation"): while the player to move of a
    # correspondence game is away, ``deadline`` is None and this is the time their turn
    # had left when it stopped (milliseconds); None while the clock runs.
    paused_ms = models.BigIntegerField(null=True, blank=True)
    # Invite links (``games.services.invites``): the hash of the link's token while the
    # table is open (None once it starts), the random part the token is made from, and
    # whether the table is left out of the lobby (only the link seats anyone).
    invite_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    invite_nonce = models.CharField(max_length=32, blank=True)
    unlisted = models.BooleanField(default=False)
    # One more with every update of the row (a database trigger: migration 0006): a
    # process that holds the game in memory between its moves (``games.held``) knows by
    # it whether anyone else wrote the game since.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "bot_to_move"]),
        ]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk}"

    #: JSON fields set once (at creation or at the deal) and never changed in place.
    WRITE_ONCE_FIELDS = ("initial", "options")

    def save(self, *args, **kwargs):
        """Save; a full save of a loaded game leaves out write-once fields it did not replace.

        A move saves the whole row, and rewriting the deal's JSON with it doubled
        what each move wrote (the deal never changes once dealt). ``version`` moves on
        here as the database's trigger moves it on in the row.
        """
        self.version += 1
        loaded = self.__dict__.get("_loaded")
        if (
            loaded
            and kwargs.get("update_fields") is None
            and not self._state.adding
            and not self.get_deferred_fields()
        ):
            unchanged = {name for name, value in loaded.items() if self.__dict__.get(name) is value}
            if unchanged:
                kwargs["update_fields"] = [
                    field.name
                    for field in self._meta.concrete_fields
                    if not field.primary_key and field.name not in unchanged
                ]
        super().save(*args, **kwargs)
        self.__dict__["_loaded"] = {
            name: self.__dict__[name] for name in self.WRITE_ONCE_FIELDS if name in self.__dict__
        }

    def write(self, fields: tuple[str, ...] | list[str]) -> None:
        """``RowWrites.write``; ``version`` moves on here as the trigger moves it on."""
        self.version += 1
        super().write(fields)

    @classmethod
    def from_db(cls, db, field_names, values):
        game = super().from_db(db, field_names, values)
        game.__dict__["_loaded"] = {
            name: game.__dict__[name] for name in cls.WRITE_ONCE_FIELDS if name in game.__dict__
        }
        return game

    @property
    def definition(self):
        """The engine's descriptor of this game's kind (``engine.definition.GameDefinition``)."""
        return game_definition(self.kind)

    @property
    def engine(self):
        """The engine module playing this game's rules."""
        return self.definition.module

    @property
    def title(self) -> str:
        """The game's name as people read it: ``Topiary``."""
        return self.definition.title

    @property
    def seat_count(self) -> int:
        """How many players sit at the table."""
        return self.definition.seat_count(self.options)

    @property
    def is_live(self) -> bool:
        """True for clocked games, False for correspondence (days per move)."""
        return self.clock_initial is not None

    @property
    def time_control(self) -> str:
        """The time control as people say it: ``5+3``, ``½+1`` (``kit.text.clock_notation``)
        or ``1 day``."""
        if self.is_live:
            return clock_notation(self.clock_initial, self.clock_increment)
        if self.correspondence_days:
            days = self.correspondence_days
            return f"{days} day{'s' if days != 1 else ''}"
        return "untimed"

    @property
    def time_control_text(self) -> str:
        """``time_control`` as the reader's language says it (``3 days``, ``3 Tage``).

        ``time_control`` itself stays as it is for frames and the API: one frame reaches
        readers of every language, and programs read it.
        """
        if self.is_live:
            return self.time_control
        if self.correspondence_days:
            return days_text(self.correspondence_days)
        return gettext("untimed")

    @property
    def termination_text(self) -> str:
        """How the game ended (``termination``), in the reader's language."""
        return str(TERMINATIONS.get(self.termination, self.termination))

    def engine_state(self):
        """The full engine state (hidden information included: server side only).

        Parsed once per stored state: a push builds a frame per seat and spectators
        from it, and engine states are immutable, so they share one parse.
        """
        cached = self.__dict__.get("_engine_state")
        if cached is not None and cached[0] is self.state:
            return cached[1]
        state = self.engine.state_from_json(self.state)
        self.__dict__["_engine_state"] = (self.state, state)
        return state

    def engine_state_is(self, state) -> None:
        """Note that ``state`` is the parse of ``self.state`` (the writer just made both)."""
        self.__dict__["_engine_state"] = (self.state, state)

    @property
    def allows_takebacks(self) -> bool:
        """Takebacks are a casual extra of some games (Wizards' Garden: WIZARDS_GARDEN.md)."""
        return self.definition.casual_takebacks and not self.rated

    def engine_initial(self):
        """The full engine state of the deal."""
        return self.engine.state_from_json(self.initial)

    def turns(self) -> list[dict]:
        """The moves played as whole turns, ``{"seat", "move", "took"}`` (hidden information).

        ``moves`` holds one entry per ply, and a Topiary turn with a take played in two
        steps is two plies (``c5:S c4``, then ``=R3``); a turn is those two joined into
        the whole move NOTATION.md writes (``c5:S c4=R3``), which records and replays read. A
        take still waiting for its plant when the game ended (on the clock, a resignation
        or a claim between the two steps) is left out: that turn was never finished, and
        the record ends before it.
        """
        turns: list[dict] = []
        take = None
        for entry in self.moves:
            if take is not None:
                joined = self.engine.join_steps(take["move"], entry["move"], take["took"])
                turns.append({"seat": take["seat"], "move": joined, "took": take["took"]})
                take = None
            elif self._is_take_step(entry["move"]):
                take = entry
            else:
                turns.append(dict(entry))
        return turns

    def _is_take_step(self, move: str) -> bool:
        """The first of a turn's two steps (a Topiary take, ``c5:S c4``), as the engine says."""
        return self.definition.takes_two_steps(move)

    def turns_state(self):
        """The full state after the finished turns (``turns()``): the record's last state."""
        state = self.engine_initial()
        for turn in self.turns():
            state = state.apply(turn["move"])
        return state


class Seat(RowWrites, models.Model):
    """A player's place at a table, in turn order (``index`` 0 moves first in seat order)."""

    class Forfeit(models.TextChoices):
        NONE = "", gettext_lazy("Playing")
        RESIGNED = "resign", gettext_lazy("Resigned")
        TIME = "time", gettext_lazy("Ran out of time")
        GONE = "gone", gettext_lazy("Left the game")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    clock_ms = models.BigIntegerField(null=True, blank=True)
    score = models.JSONField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # A forfeited seat ranks last; with 3-4 players a bot plays its remaining turns.
    forfeit = models.CharField(max_length=10, choices=Forfeit.choices, blank=True)
    # Last sign of life from the player's page (connect, message, heartbeat or leaving).
    last_seen = models.DateTimeField(null=True, blank=True)
    # The end of the player's vacation while they are away (a correspondence game's copy
    # of ``Preferences.vacation_until``, kept by ``games.services.vacations``): frames
    # show it, and their turns' clocks stand still until then.
    away_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        indexes = [
            # The vacations sweep looks for the few seats whose player is away.
            models.Index(
                fields=["away_until"],
                condition=models.Q(away_until__isnull=False),
                name="seat_away_until",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}"

    @property
    def played_by_bot(self) -> bool:
        """True when the site's engine makes this seat's moves (a house bot or a stand-in).

        An outside bot (Bot API) is a bot account but moves by itself: never queued.
        """
        return bool(self.forfeit) or (self.user is not None and self.user.moved_by_site)

    def gone_since(self, game: Game):
        """Since when the player has shown no sign of life (house bots are never gone)."""
        if self.user is None or self.user.moved_by_site:
            return None
        return self.last_seen or game.started_at

    def is_gone(self, game: Game, now=None) -> bool:
        """True when the player has been gone long enough for an opponent to claim the win."""
        since = self.gone_since(game)
        return since is not None and since <= (now or timezone.now()) - GONE_CLAIM_AFTER


class SeekPool(models.Model):
    """One row per quick-pairing cell (game, players, time control, rated): its lock.

    Every seek placed, cancelled or topped up in a cell locks this row first
    (``select_for_update``), so pairing in a cell has one writer at a time: two
    players seeking at once never make two games or are paired twice.
    """

    cell = models.CharField(max_length=60, unique=True)

    def __str__(self) -> str:
        return self.cell


class Seek(models.Model):
    """A player waiting to be paired in one quick-pairing cell (games/seeks.py).

    At most one per player; it belongs to the lobby socket that placed it (``channel``)
    and is cancelled when that socket closes. ``rating`` is the player's rating of the
    game when seeking; ``rating_min``/``rating_max`` (None: any) bound the opponents' ones.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek"
    )
    cell = models.CharField(max_length=60)
    kind = GameKindField()
    players = models.PositiveSmallIntegerField()
    time_control = models.CharField(max_length=8, choices=TimeControl.choices)
    rated = models.BooleanField(default=True)
    rating = models.FloatField()
    rating_min = models.FloatField(null=True, blank=True)
    rating_max = models.FloatField(null=True, blank=True)
    # 3-4 players: seconds after which bots fill the free seats (None: wait for people).
    bots_after = models.PositiveIntegerField(null=True, blank=True)
    channel = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["cell", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user} seeks {self.cell}"

    @property
    def is_live(self) -> bool:
        """True for a clocked cell (a live game), False for days per move."""
        return TimeControl(self.time_control).fields()["clock_initial"] is not None

    def accepts(self, rating: float) -> bool:
        """True when an opponent rated ``rating`` is within this seek's range."""
        return (self.rating_min is None or rating >= self.rating_min) and (
            self.rating_max is None or rating <= self.rating_max
        )

    def suits(self, other: "Seek") -> bool:
        """True when two seekers may meet: two players, each within the other's range."""
        return (
            self.user_id != other.user_id
            and self.accepts(other.rating)
            and other.accepts(self.rating)
        )
