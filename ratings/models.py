from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from engine.games import game_definition, game_names
from games.models import GameKindField
from ratings import elo

#: The puzzle rating's kind; every other rating kind is a registered game's name.
PUZZLE = "puzzle"


def game_kinds() -> tuple[str, ...]:
    """The kinds rated by playing games: every registered game's name, run-time ones too."""
    return game_names()


def rating_kinds() -> tuple[str, ...]:
    """Every kind a rating can have: the games', then the puzzles' (the order pages show)."""
    return (*game_names(), PUZZLE)


class RatingKind(str):
    """What a rating measures, as pages show it: ``kind.value`` and ``kind.label`` (its title).

    A str, so it filters and compares as the stored kind; ``RatingKind(kind)`` refuses a
    kind that is neither a registered game nor ``puzzle``.
    """

    def __new__(cls, kind: str):
        if kind not in rating_kinds():
            raise ValueError(f"{kind!r} is not a rating kind")
        return super().__new__(cls, kind)

    @property
    def value(self) -> str:
        return str(self)

    @property
    def label(self) -> str:
        return gettext("Puzzles") if self == PUZZLE else game_definition(self).title


def validate_rating_kind(kind: str) -> None:
    """Refuse a kind that is neither a registered game nor ``puzzle``."""
    if kind not in rating_kinds():
        raise ValidationError(
            gettext_lazy("%(kind)s is not a rating kind: one of %(kinds)s."),
            code="unknown_rating_kind",
            params={"kind": repr(kind), "kinds": ", ".join(rating_kinds())},
        )


class RatingKindField(GameKindField):
    """A rating's kind: a registered game's name or ``puzzle``, judged by the registry."""

    default_validators = [validate_rating_kind]

    def kind_choices(self) -> list[tuple[str, str]]:
        return [(kind, RatingKind(kind).label) for kind in rating_kinds()]


class Rating(models.Model):
    """A player's current Elo for one kind and how many rated games (or puzzles) built it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = RatingKindField()
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
    kind = RatingKindField()
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
