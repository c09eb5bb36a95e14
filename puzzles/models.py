import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import GameKindField


class DailyPuzzle(models.Model):
    """The puzzle of one date, as ``engine.puzzles.daily(date)`` made it, plus its own rating.

    ``line`` is the answer: it never leaves the server before the viewer has
    solved the puzzle or given up on it.
    """

    date = models.DateField(unique=True)
    seed_hex = models.CharField(max_length=64)
    # Which candidate of the date's seed stream made a good puzzle (0 = the first).
    candidate = models.PositiveSmallIntegerField(default=0)
    position = models.JSONField()
    seat = models.PositiveSmallIntegerField()
    k = models.PositiveSmallIntegerField()
    optimum = models.IntegerField()
    line = models.JSONField()
    optimal_first_moves = models.PositiveIntegerField()
    legal_first_moves = models.PositiveIntegerField()
    greedy = models.IntegerField()
    # The engine's measures: how far greedy falls short, how rare optimal first moves are.
    difficulty = models.JSONField()
    rating = models.FloatField()
    rated_attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"Daily puzzle {self.date.isoformat()}"

    @property
    def verify_command(self) -> str:
        """The command anyone can run to regenerate this puzzle and its optimum."""
        return f"python -m engine topiary daily {self.date.isoformat()}"


class RatedAttempt(models.Model):
    """What every puzzle attempt keeps: the moves, how they scored, and the two ratings on
    either side of a rated (first) attempt."""

    moves = models.JSONField(default=list, blank=True)
    # None for a give-up: nothing was played.
    score = models.IntegerField(null=True, blank=True)
    solved = models.BooleanField(default=False)
    gave_up = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    user_rating_before = models.FloatField(null=True, blank=True)
    user_rating_after = models.FloatField(null=True, blank=True)
    puzzle_rating_before = models.FloatField(null=True, blank=True)
    puzzle_rating_after = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.user} on {self.puzzle}"


class PuzzleAttempt(RatedAttempt):
    """One submission (or a give-up) by a signed-in user; the first one per puzzle is rated."""

    puzzle = models.ForeignKey(DailyPuzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "puzzle"],
                condition=models.Q(rated=True),
                name="one_rated_attempt_per_user_and_puzzle",
            ),
            models.CheckConstraint(
                condition=~(models.Q(solved=True) & models.Q(gave_up=True)),
                name="give_up_is_not_a_solve",
            ),
        ]
        indexes = [models.Index(fields=["user", "puzzle"])]


class PuzzleStreak(models.Model):
    """A user's run of days on which they solved that day's puzzle on that day (UTC)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_streak"
    )
    current = models.PositiveIntegerField(default=0)
    best = models.PositiveIntegerField(default=0)
    last_solved = models.DateField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["-current", "last_solved"])]

    def __str__(self) -> str:
        return f"{self.user}: {self.current} days"

    def current_on(self, today: datetime.date) -> int:
        """The streak as it stands on ``today``: still alive until a whole day goes unsolved."""
        if self.last_solved is None or self.last_solved < today - datetime.timedelta(days=1):
            return 0
        return self.current


class TrainingPuzzle(models.Model):
    """A proven puzzle of the training stream, mined from a finished game or from self-play.

    ``line`` is the answer: it never leaves the server before the viewer has
    solved the puzzle or given up on it. ``fingerprint`` (sha256 of the kind, the
    canonical position, the seat and K) keeps one row per puzzle however often it is mined.
    """

    class Origin(models.TextChoices):
        GAME = "game", _("From a game on the site")
        SELF_PLAY = "selfplay", _("From bot self-play")

    kind = GameKindField()
    position = models.JSONField()
    seat = models.PositiveSmallIntegerField()
    k = models.PositiveSmallIntegerField()
    optimum = models.IntegerField()
    greedy = models.IntegerField()
    played = models.IntegerField(null=True, blank=True)
    line = models.JSONField()
    optimal_first_moves = models.JSONField()
    legal_first_moves = models.PositiveIntegerField()
    nodes = models.PositiveIntegerField()
    themes = models.JSONField(default=list)
    difficulty = models.JSONField(default=dict)
    rating = models.FloatField()
    rated_attempts = models.PositiveIntegerField(default=0)
    origin = models.CharField(max_length=8, choices=Origin.choices)
    source_game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    source_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    source_ply = models.PositiveIntegerField(null=True, blank=True)
    seed = models.CharField(max_length=64, blank=True)
    fingerprint = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["kind", "rating"]),
            # The next-puzzle walk reads (id, rating) from the index alone (an index-only
            # scan): ~35x less than visiting each row (issue 44,
            # docs/decisions/0023-training-walk-on-a-covering-index.md).
            models.Index(fields=["kind", "rating"], include=["id"], name="training_puzzle_walk"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} puzzle {self.fingerprint[:12]} (K={self.k})"

    @property
    def verify_command(self) -> str:
        """The command that re-proves this puzzle, given its JSON (``{"position": ..., "k":
        K}``) in ``puzzle.json``."""
        from engine.games import game_definition

        game = game_definition(self.kind)
        return f"python -m engine {(game.aliases or (game.name,))[-1]} solve puzzle.json"


class TrainingRun(models.Model):
    """One Puzzle Streak or Puzzle Storm run: its puzzles, score and (storm) deadline.

    The deadline is the server's: an answer that arrives after it does not count, however
    the client's clock reads.
    """

    class Mode(models.TextChoices):
        STREAK = "streak", _("Puzzle Streak")
        STORM = "storm", _("Puzzle Storm")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="training_runs"
    )
    mode = models.CharField(max_length=6, choices=Mode.choices)
    # Puzzles solved in the run: the streak's length, the storm's score.
    score = models.PositiveIntegerField(default=0)
    mistakes = models.PositiveIntegerField(default=0)
    current = models.ForeignKey(
        TrainingPuzzle, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(default=timezone.now)
    # Storm only: when the run's time is up (each mistake brings it closer).
    deadline = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["mode", "-score"], name="training_run_best"),
            models.Index(fields=["mode", "started_at"], name="training_run_day"),
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} of {self.user}: {self.score}"

    def seconds_left(self, now: datetime.datetime) -> float | None:
        """Storm: seconds from ``now`` to the deadline (0 once over); None for a streak."""
        if self.deadline is None:
            return None
        if self.ended_at is not None:
            return 0.0
        return max(0.0, (self.deadline - now).total_seconds())


class TrainingAttempt(RatedAttempt):
    """One answer (or give-up) at a training puzzle; a user's first one per puzzle is rated."""

    puzzle = models.ForeignKey(TrainingPuzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="training_attempts"
    )
    run = models.ForeignKey(
        TrainingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="attempts"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "puzzle"],
                condition=models.Q(rated=True),
                name="one_rated_training_attempt",
            ),
            models.CheckConstraint(
                condition=~(models.Q(solved=True) & models.Q(gave_up=True)),
                name="training_give_up_is_not_a_solve",
            ),
        ]
        # (user, puzzle) answers "has this user seen it" for the next-puzzle anti-join.
        indexes = [models.Index(fields=["user", "puzzle"], name="training_attempt_seen")]
