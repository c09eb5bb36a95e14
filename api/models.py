from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Scope(models.TextChoices):
    """What a personal API token may do (docs/API.md lists the endpoints of each)."""

    READ = "read", gettext_lazy("Read your own data (your seat's view of your games, your account)")
    PLAY = "play", gettext_lazy("Play your games (moves, resign, challenges) as a human account")
    BOT_PLAY = "bot:play", gettext_lazy("Play as a BOT account (and upgrade an account to BOT)")
    PUZZLE_WRITE = "puzzle:write", gettext_lazy("Submit puzzle attempts")
    TOURNAMENT_WRITE = "tournament:write", gettext_lazy("Join and leave tournaments")


class ApiTokenQuerySet(models.QuerySet):
    def live(self):
        """The tokens that still work: not revoked and not past their last day."""
        return self.filter(revoked_at__isnull=True).filter(
            models.Q(expires_on__isnull=True) | models.Q(expires_on__gte=_today())
        )


def _today():
    """Today in UTC, the calendar an expiry date is read in."""
    return timezone.now().date()


class ApiToken(models.Model):
    """A personal API token: a name, scopes, and the SHA-256 of its secret (never the secret).

    The secret is shown once, when the token is made; ``prefix`` (its first characters)
    lets its owner tell tokens apart on the settings page.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    scopes = models.JSONField(default=list)
    secret_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    #: The last day (UTC) the token works, or None for a token that works until revoked.
    expires_on = models.DateField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user} token {self.name!r}"

    @property
    def expired(self) -> bool:
        return self.expires_on is not None and self.expires_on < _today()

    @property
    def active(self) -> bool:
        return self.revoked_at is None and not self.expired

    def allows(self, scope: str) -> bool:
        return scope in self.scopes
