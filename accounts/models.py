from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Bots are users too, marked ``is_bot``, with the engine level they play at."""

    class BotLevel(models.TextChoices):
        RANDOM = "random", "Random"
        GREEDY = "greedy", "Greedy"
        STRONG = "strong", "Strong"

    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=16, choices=BotLevel.choices, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_bot=False, bot_level="")
                | (models.Q(is_bot=True) & ~models.Q(bot_level="")),
                name="bot_has_level_and_only_bots",
            )
        ]

    def __str__(self) -> str:
        return self.username
