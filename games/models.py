from django.conf import settings
from django.db import models


class GameKind(models.TextChoices):
    TOPIARY = "topiary", "Topiary"
    WIZARDS_GARDEN = "wizards_garden", "Wizards' Garden"


class Game(models.Model):
    """One table: its seats, its options and deal seed, and the moves played so far.

    ``state`` and ``moves`` hold hidden information (face-down identities,
    hands, the tiles taken). They never leave the server while the game is
    running: everything a client sees is built from an engine view.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    kind = models.CharField(max_length=20, choices=GameKind.choices)
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
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ply = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    moves = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    termination = models.CharField(max_length=20, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class Seat(models.Model):
    """A player's place at a table, in turn order (``index`` 0 moves first in seat order)."""

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

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}"
