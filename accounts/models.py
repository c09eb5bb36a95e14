from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from accounts.validators import username_skeleton, validate_time_zone
from engine.bots import measured_ratings
from engine.games import game_definition


class UserManager(DjangoUserManager):
    """Usernames are unique regardless of case, so logging in ignores case too."""

    def get_by_natural_key(self, username):
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player. Bots are users too, marked ``is_bot``, with the engine level they play at
    (or ``api``: an outside program plays it through the Bot API)."""

    class BotLevel(models.TextChoices):
        RANDOM = "random", pgettext_lazy("bot level", "Random")
        GREEDY = "greedy", pgettext_lazy("bot level", "Greedy")
        STRONG = "strong", pgettext_lazy("bot level", "Strong")
        MASTER = "master", pgettext_lazy("bot level", "Master")

    #: Not an engine level (so not in ``BotLevel``, which lists the house bots' levels): an
    #: outside program moves this bot through the Bot API (docs/API.md).
    OUTSIDE_BOT_LEVEL = "api"

    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(
        max_length=16,
        choices=[*BotLevel.choices, (OUTSIDE_BOT_LEVEL, gettext_lazy("Outside program (Bot API)"))],
        blank=True,
    )
    # Set when the player closed the account: it keeps its name (games and ratings stay
    # history under it, nobody else can take it) and can never sign in again.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The name's look-alike key (accounts.validators.username_skeleton), unique so that the
    # database itself refuses "StrongB0t" beside "StrongBot", two racing registrations
    # included. Set from the name on every save that changes it. Empty (NULL) only for
    # an account older than the check whose name looked like an older account's: the
    # older one holds the key (migration 0006).
    username_skeleton = models.CharField(  # noqa: DJ001 (NULLs never clash; "" would)
        max_length=255, unique=True, null=True, editable=False
    )

    objects = UserManager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_bot=False, bot_level="")
                | (models.Q(is_bot=True) & ~models.Q(bot_level="")),
                name="bot_has_level_and_only_bots",
            ),
            # "Alice" and "alice" would be one name to a reader, so the database refuses both.
            models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case"),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="email_unique_ignoring_case",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    @classmethod
    def from_db(cls, db, field_names, values):
        user = super().from_db(db, field_names, values)
        user._username_saved = user.__dict__.get("username")
        return user

    def save(self, *args, **kwargs):
        # Only a new or changed name takes a new key, so saving an account whose name
        # predates the check (key NULL) keeps working.
        if self._state.adding or self.username != getattr(self, "_username_saved", None):
            self.username_skeleton = username_skeleton(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "username" in update_fields:
                kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        super().save(*args, **kwargs)
        self._username_saved = self.username

    @property
    def moved_by_site(self) -> bool:
        """True for the house bots, whose moves the site's workers choose and play.

        ``is_bot`` says "a BOT account" (marked BOT, rated on the bots' boards); an
        outside bot (``bot_level`` ``api``) is a bot too but plays only through the API.
        """
        return self.is_bot and self.bot_level != self.OUTSIDE_BOT_LEVEL

    @property
    def measured_strength(self) -> list[tuple[str, int]]:
        """A house bot's measured strength, (game title, Elo) per game that measured its
        level (``engine.bots.measured_ratings``); empty for everyone else."""
        if not self.moved_by_site:
            return []
        return [
            (gettext(game_definition(name).title), rating)
            for name, rating in measured_ratings(self.bot_level).items()
        ]


class Preferences(models.Model):
    """How one player likes the site: read by every page through ``prefs`` (context processor)."""

    class Theme(models.TextChoices):
        AUTO = "auto", gettext_lazy("Follow the device")
        LIGHT = "light", pgettext_lazy("theme", "Light")
        DARK = "dark", pgettext_lazy("theme", "Dark")

    class Language(models.TextChoices):
        """A language is named in itself ("Deutsch" on an English page too), so a reader
        finds their own whatever the page's language."""

        BROWSER = "", gettext_lazy("The browser's")
        ENGLISH = "en", "English"
        GERMAN = "de", "Deutsch"

    class Animation(models.TextChoices):
        """How long the boards' animations (a flip, a harvest, a tile turned over) take;
        the device's "reduce motion" turns them off whatever is chosen here."""

        NONE = "none", pgettext_lazy("animation speed", "None")
        FAST = "fast", pgettext_lazy("animation speed", "Fast")
        NORMAL = "normal", pgettext_lazy("animation speed", "Normal")
        SLOW = "slow", pgettext_lazy("animation speed", "Slow")

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="preferences")
    sound = models.BooleanField(default=True)
    confirm_moves = models.BooleanField(default=True)
    theme = models.CharField(max_length=8, choices=Theme.choices, default=Theme.AUTO)
    language = models.CharField(max_length=8, choices=Language.choices, default="", blank=True)
    coordinates = models.BooleanField(default=True)
    animation = models.CharField(max_length=8, choices=Animation.choices, default=Animation.NORMAL)
    #: An IANA zone (``Europe/Berlin``); blank: pages use the browser's, e-mails and the
    #: daily digest UTC. No model choices: the zone list comes from the installed tzdata.
    time_zone = models.CharField(max_length=64, blank=True, validators=[validate_time_zone])
    # Time away (docs/subsystems/accounts.md, "Vacation"): while ``vacation_until`` is in
    # the future the player's correspondence clocks stand still. ``vacation_started_at``
    # is when the current (or last) vacation began; ``vacation_days_used`` counts the
    # days charged against the allowance of the calendar year ``vacation_year`` (UTC).
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)

    #: Days away a player may take in a calendar year (UTC), and at most at once
    #: (docs/subsystems/accounts.md, "Vacation").
    VACATION_DAYS_A_YEAR = 30
    VACATION_DAYS_AT_ONCE = 14

    FIELDS = (
        "sound",
        "confirm_moves",
        "theme",
        "language",
        "coordinates",
        "animation",
        "time_zone",
    )

    def __str__(self) -> str:
        return f"Preferences of {self.user}"

    @classmethod
    def form_changes(cls, posted) -> dict:
        """The changes a posted settings form asks for. An unticked checkbox is not posted: it
        means off. A choice not posted (a form from before the choice existed) keeps its value."""
        return {
            name: posted.get(name, "")
            for name in cls.FIELDS
            if name in posted or isinstance(cls._meta.get_field(name), models.BooleanField)
        }

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.FIELDS}

    def away_until(self, now):
        """The end of the player's vacation while they are away at ``now``, else None."""
        until = self.vacation_until
        return until if until is not None and until > now else None

    def vacation_days_left(self, now) -> int:
        """Whole days of this year's allowance not yet taken (days booked count as taken)."""
        used = self.vacation_days_used if self.vacation_year == now.year else 0
        return max(0, self.VACATION_DAYS_A_YEAR - used)


class EmailChange(models.Model):
    """A new address waiting for its owner to follow the link sent to it.

    The link carries only a random token; the row keeps its hash (as an API token's), so
    the link names no user and no address, and the table alone confirms no change.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="email_changes")
    token_hash = models.CharField(max_length=64, unique=True)
    # The address it replaces: once the change (this one or another) is made, a link
    # whose old address no longer matches is spent.
    old_email = models.EmailField(blank=True)
    new_email = models.EmailField()
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"E-mail change of {self.user}"


class Follow(models.Model):
    """``follower`` follows ``followed``: the home page shows the followed player when they
    are online or playing. One-way; nobody is told they are followed."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: the blocked player's challenges, invitations and
    private words to the blocker are refused (docs/subsystems/accounts.md, "Blocking")."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"
