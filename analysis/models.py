"""One post-game analysis per finished game, cached with it (docs/ANALYSIS.md)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Analysis(models.Model):
    """The engine's judgement of every move of one finished game, from each mover's view.

    ``result`` grows turn by turn while the task runs (``{"turns": [...]}``, then the
    seats' totals under ``"players"`` when done), so a task that is run again picks up
    where the last one stopped; ``done``/``total`` are the turns analysed and to analyse.
    ``runs`` counts the tasks that started work on it (one, unless a worker died).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    runs = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"
