from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from engine.games import GAMES
from ratings import elo

#: What a rating measures: one per game (``RatingKind.TOPIARY``...), from the engine's game
#: descriptors, and one for puzzles. A game registered at run time is rated under its name
#: too (the column has no database constraint).
RatingKind = models.TextChoices(
    "RatingKind",
    [
        *((game.name.upper(), (game.name, game.title)) for game in GAMES),
        ("PUZZLE", ("puzzle", gettext_lazy("Puzzles"))),
    ],
)

#: The kinds rated by playing games (the puzzle rating moves with puzzle attempts).
GAME_KINDS = tuple(RatingKind(game.name) for game in GAMES)


class Rating(models.Model):
    """A player's current Elo for one kind and how many rated games (or puzzles) built it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=20, choices=RatingKind.choices)
    value = models.FloatField(default=elo.INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_kind"),
        ]
        indexes = [models.Index(fields=["kind", "-value"])]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.display}"

    @property
    def provisional(self) -> bool:
        """True while fewer than 20 rated games: shown with "?" and left off leaderboards."""
        return elo.is_provisional(self.games)

    @property
    def display(self) -> str:
        """The rating as players see it: rounded, with "?" while provisional."""
        return f"{round(self.value)}{'?' if self.provisional else ''}"


class RatingChange(models.Model):
    """One move of one rating, kept for the history chart and for audit.

    Exactly one of ``game`` (a rated game) and ``puzzle_key`` (a puzzle
    attempt) is set; each can move a player's rating only once.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=20, choices=RatingKind.choices)
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    puzzle_key = models.CharField(max_length=100, blank=True)
    before = models.FloatField()
    after = models.FloatField()
    k = models.FloatField()
    # Averaged over the opponents, 0..1: after = before + k * (score - expected).
    score = models.FloatField()
    expected = models.FloatField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game_player"),
            models.UniqueConstraint(
                fields=["user", "puzzle_key"],
                condition=~models.Q(puzzle_key=""),
                name="one_change_per_puzzle_player",
            ),
            models.CheckConstraint(
                condition=(models.Q(game__isnull=False) & models.Q(puzzle_key=""))
                | (models.Q(game__isnull=True) & ~models.Q(puzzle_key="")),
                name="change_from_game_or_puzzle",
            ),
        ]
        indexes = [models.Index(fields=["user", "kind", "created"])]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.before:.0f} -> {self.after:.0f}"

    @property
    def change(self) -> float:
        """``after - before``."""
        return self.after - self.before
