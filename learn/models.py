from django.conf import settings
from django.db import models


class LessonProgress(models.Model):
    """One lesson step a signed-in player has solved (visitors keep theirs in the browser)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress"
    )
    game = models.CharField(max_length=32)
    step = models.CharField(max_length=64)
    solved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "step"], name="lesson_step_once")
        ]
        ordering = ["solved_at"]

    def __str__(self) -> str:
        return f"{self.user} solved {self.game}/{self.step}"
