from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from engine.games import game_definition
from games.models import GameKindField
from kit.text import clock_notation
from tournaments.formats import FORMATS, TournamentFormat, format_for


class Tournament(models.Model):
    """An event: its format and time control, its entrants, and how far it has got.

    The database holds the whole state of a running event (rounds, pairings, the
    games and their points), so any process can pick it up where another stopped.
    """

    #: The formats of ``tournaments.formats.FORMATS``, as choices (``Format.SWISS`` is "swiss").
    Format = models.TextChoices(
        "Format", [(fmt.name.upper(), (fmt.name, fmt.label)) for fmt in FORMATS]
    )

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    kind = GameKindField()
    format = models.CharField(max_length=20, choices=Format.choices)
    #: Players per game: 2, or 3-4 for Swiss tables of Topiary.
    table_size = models.PositiveSmallIntegerField(default=2)
    #: Swiss and Swiss tables: the rounds to play. Round robin: set at the start.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Arena: minutes from the start until no new game begins.
    duration_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_initial = models.PositiveIntegerField()
    clock_increment = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    # Whether BOT accounts may join by themselves (issue 16); the creator may always enter bots.
    bots_allowed = models.BooleanField(default=False)
    starts_at = models.DateTimeField()
    max_players = models.PositiveSmallIntegerField()
    #: Swiss tables: points per finishing place, keyed by table size ("4": [3, 2, 1, 0]).
    place_points = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_tournaments",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Why a tournament was cancelled (too few players at the start).
    note = models.CharField(max_length=200, blank=True)
    #: Called off by its creator before the start (rather than for want of players).
    cancelled_by_creator = models.BooleanField(default=False)
    #: Bumped on every change a watcher should see; live pages resync when it moves.
    version = models.PositiveIntegerField(default=0)
    #: The schedule entry that created this event (``tournaments.scheduling``), if any.
    schedule_entry = models.ForeignKey(
        "ScheduleEntry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    #: Bots may play but never take a trophy or season points (``tournaments.seasons``).
    people_only = models.BooleanField(default=False)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            # Two beats creating the same occurrence at once create it once (ON CONFLICT).
            models.UniqueConstraint(
                fields=["schedule_entry", "starts_at"],
                name="one_event_per_schedule_time",
                condition=models.Q(schedule_entry__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def format_rules(self) -> TournamentFormat:
        """The format object that decides pairings, points and tie-breaks for this event."""
        return format_for(self.format)

    @property
    def game_title(self) -> str:
        """The game played, as its descriptor names it: "Wizards' Garden"."""
        return game_definition(self.kind).title

    @property
    def format_title(self) -> str:
        """The format as the page names it: "Swiss tables of 4"."""
        return self.format_rules.title(self)

    @property
    def length_text(self) -> str:
        """How long the event runs: "5 rounds", "60 minutes"."""
        return self.format_rules.length(self)

    @property
    def note_text(self) -> str:
        """Why the tournament was cancelled, in the reader's language. ``note`` keeps the
        text in the language of the process that cancelled it; the reasons are the
        creator's call and too few players at the start, and no entry comes or goes after
        the cancellation."""
        if self.status != self.Status.CANCELLED:
            return self.note
        if self.cancelled_by_creator:
            return str(_("Cancelled by its creator."))
        entrants = [entry.user for entry in self.entries.select_related("user")]
        return not_enough_players(len(entrants), bots_alone=self.house_bots_alone(entrants))

    def house_bots_alone(self, entrants) -> bool:
        """Whether ``entrants`` (users) are all house bots its schedule entry brings: such
        an event is called off at its start rather than have them play each other."""
        levels = self.schedule_entry.house_bots if self.schedule_entry_id else []
        return bool(entrants and levels) and all(
            user.moved_by_site and user.bot_level in levels for user in entrants
        )

    @property
    def ends_at(self):
        """Timed events: when the last games may start; others end with their last round."""
        if not self.format_rules.timed or self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.duration_minutes)

    @property
    def time_control(self) -> str:
        """The clock as every page writes it: ``½+1``, ``3+2`` (``kit.text.clock_notation``)."""
        return clock_notation(self.clock_initial, self.clock_increment)


def not_enough_players(entered: int, *, bots_alone: bool = False) -> str:
    """The note of a tournament cancelled at its start for want of players (or, in a
    scheduled event, for want of anyone but its house bots)."""
    if bots_alone and entered:
        return str(_("Nobody entered but the house bots."))
    return ngettext(
        "Not enough players: %(count)s entered.", "Not enough players: %(count)s entered.", entered
    ) % {"count": entered}


class Entry(models.Model):
    """A player entered in a tournament; withdrawing mid-event keeps the games played."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: The player's rating for the tournament's game when it started (seeding, performance).
    rating = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Round(models.Model):
    """One round of a Swiss, Swiss tables or round robin event (arenas have none)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    #: Round robin rounds exist from the start; their games begin when the round does.
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            # The guard that makes advancing a round twice pair it once.
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Pairing(models.Model):
    """A table of a round (or an arena game), or a bye: who plays, in seat order, and the game."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="pairings"
    )
    board = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_pairing",
    )
    is_bye = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Set once the points are stored (game over, bye or forfeit).
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round__number", "board", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "board"],
                name="one_pairing_per_board",
                condition=models.Q(round__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} board {self.board}"


class PairingPlayer(models.Model):
    """One player of a pairing: their seat, and once scored their place and points."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="players")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="pairing_players")
    seat = models.PositiveSmallIntegerField()
    #: Final place at the table (1 is first; equal places shared). Null until scored.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True)
    #: Arena: the player was on a winning streak, so this game counted double.
    on_fire = models.BooleanField(default=False)
    #: Won because the opponent withdrew (round robin) rather than at the board.
    forfeit = models.BooleanField(default=False)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "seat"], name="one_player_per_pairing_seat"),
            models.UniqueConstraint(fields=["pairing", "entry"], name="one_seat_per_pairing_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.user} at {self.pairing}"


class ScheduleEntry(models.Model):
    """A recurring event: what to create, how often, and how far ahead (staff edit it in the
    admin, which checks it with ``tournaments.scheduling.schedule_entry_check``;
    ``tournaments.scheduling.schedule_run`` creates the events)."""

    class Cadence(models.TextChoices):
        HOURLY = "hourly", _("Hourly")
        DAILY = "daily", _("Daily")
        WEEKLY = "weekly", _("Weekly")
        MONTHLY = "monthly", _("Monthly")

    name = models.CharField(max_length=80)
    kind = GameKindField()
    format = models.CharField(max_length=20, choices=Tournament.Format.choices)
    table_size = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_initial = models.PositiveIntegerField(help_text=_("Seconds each."))
    clock_increment = models.PositiveIntegerField(default=0, help_text=_("Seconds a move."))
    max_players = models.PositiveSmallIntegerField(default=100)
    rated = models.BooleanField(default=True)
    bots_allowed = models.BooleanField(
        default=False, help_text=_("BOT accounts may join the events by themselves.")
    )
    people_only = models.BooleanField(
        default=True,
        help_text=_("Bots never take a trophy or season points (the next person does)."),
    )
    #: The levels of the house bots (``User.BotLevel``) the schedule enters in each event
    #: when it creates it, so a small community's event has someone to play; only where
    #: ``bots_allowed``.
    house_bots = models.JSONField(
        default=list,
        blank=True,
        help_text=_("House bots entered in each event when it is created (bot-allowed only)."),
    )
    cadence = models.CharField(max_length=10, choices=Cadence.choices)
    #: The start, in UTC: minute past the hour; hour (daily and longer); weekday (weekly,
    #: Monday is 0); day of the month (monthly, 1-28 so every month has it).
    minute = models.PositiveSmallIntegerField(default=0)
    hour = models.PositiveSmallIntegerField(default=0, help_text=_("UTC, 0-23."))
    weekday = models.PositiveSmallIntegerField(
        default=0, help_text=_("Weekly: 0 is Monday, 6 is Sunday.")
    )
    day = models.PositiveSmallIntegerField(default=1, help_text=_("Monthly: 1-28."))
    create_ahead_hours = models.PositiveSmallIntegerField(
        default=24, help_text=_("Events are created this many hours before they start.")
    )
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["cadence", "kind", "name"]
        verbose_name_plural = _("schedule entries")

    def __str__(self) -> str:
        return self.name


class Trophy(models.Model):
    """A top-three place in a scheduled event or in a season (a calendar month, UTC)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trophies"
    )
    kind = GameKindField()
    place = models.PositiveSmallIntegerField()
    #: The event won a place in; null for a season trophy.
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="trophies"
    )
    #: The first day of the season's month (an event trophy: its event's season).
    season = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-season", "place", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                name="one_trophy_per_event_player",
                condition=models.Q(tournament__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["season", "kind", "user"],
                name="one_season_trophy_per_player",
                condition=models.Q(tournament__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} place {self.place}"

    @property
    def game_title(self) -> str:
        """The game the trophy was won at, as its descriptor names it."""
        return game_definition(self.kind).title


class SeasonScore(models.Model):
    """A player's season points from one finished scheduled event (kept when it is gone)."""

    tournament = models.ForeignKey(
        Tournament, null=True, on_delete=models.SET_NULL, related_name="season_scores"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_scores"
    )
    kind = GameKindField()
    season = models.DateField()
    rank = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField()

    class Meta:
        indexes = [models.Index(fields=["kind", "season"])]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="one_season_score_per_event_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.points} in {self.season:%Y-%m}"
