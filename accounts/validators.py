"""What a username may be."""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 20
USERNAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
# The house bots and their numbered companions (GreedyBot2, ...) keep their names even
# before they exist, so no person can pass for a bot.
RESERVED_USERNAME = re.compile(r"(?i)(?:(?:random|greedy|strong)bot\d*|admin|topiary)")


def validate_username(value: str) -> None:
    """Refuse a username that is too short or long, has odd characters, or is reserved."""
    if not USERNAME_MIN_LENGTH <= len(value) <= USERNAME_MAX_LENGTH:
        raise ValidationError(
            _("A username has %(min)s to %(max)s characters."),
            code="username_length",
            params={"min": USERNAME_MIN_LENGTH, "max": USERNAME_MAX_LENGTH},
        )
    if not USERNAME_PATTERN.fullmatch(value):
        raise ValidationError(
            _(
                "A username uses only letters A-Z, digits, '-' and '_', "
                "and starts with a letter or digit."
            ),
            code="username_characters",
        )
    if RESERVED_USERNAME.fullmatch(value):
        raise ValidationError(_("That username is reserved."), code="username_reserved")
