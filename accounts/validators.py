"""What a username may be, and when two names are too alike to tell apart."""

import re
import string
import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 20
USERNAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")

# Unicode TR39's confusables (confusables.txt) restricted to what USERNAME_PATTERN allows:
# of the 64 ASCII letters, digits, '-' and '_', only these four have a skeleton other than
# themselves (checked against ICU's SpoofChecker, the reference implementation). Names
# are ASCII, so this table is the whole of TR39 for them; a wider alphabet would need ICU.
_TR39_ASCII = str.maketrans({"m": "rn", "I": "l", "0": "O", "1": "l"})


def _tr39_skeleton(text: str) -> str:
    return text.translate(_TR39_ASCII)


def username_skeleton(username: str) -> str:
    """The key two names share when a reader could take one for the other.

    TR39's skeleton (``0``->``O``, ``1``/``I``->``l``, ``m``->``rn``), case-folded, and the
    skeleton taken again so that a capital's look-alike meets the same key (``M``, once
    lower case, reads ``rn`` too). A skeleton tells case apart: ``I`` reads ``l`` but ``i``
    stays, so ``Ivan`` would meet ``lvan`` while ``ivan`` (the same name as ``Ivan``) would
    not; ``i`` joins ``l`` to keep one key per name whatever its case. Stored, unique, as
    ``User.username_skeleton``.
    """
    return _tr39_skeleton(_tr39_skeleton(username).casefold()).replace("i", "l")


# The house bots and their numbered companions (GreedyBot2, ...) and the site's own
# names keep their names even before they exist, look-alikes included, so no person
# can pass for a bot or for the staff.
RESERVED_BOT_STEMS = ("RandomBot", "GreedyBot", "StrongBot", "MasterBot")
RESERVED_STAFF_NAMES = ("admin", "topiary")
_DIGIT_SKELETONS = "".join(sorted({username_skeleton(digit) for digit in string.digits}))
RESERVED_SKELETON = re.compile(
    "(?:"
    + "|".join(re.escape(username_skeleton(stem)) for stem in RESERVED_BOT_STEMS)
    + f")[{re.escape(_DIGIT_SKELETONS)}]*|"
    + "|".join(re.escape(username_skeleton(name)) for name in RESERVED_STAFF_NAMES)
)


def validate_username(value: str) -> None:
    """Refuse a username that is too short or long, has odd characters, or is reserved
    (a house bot's or the staff's name, or a look-alike of one)."""
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
    if RESERVED_SKELETON.fullmatch(username_skeleton(value)):
        raise ValidationError(
            _(
                "That username is reserved: it is, or looks like, the name of a house bot "
                "or of the site's staff."
            ),
            code="username_reserved",
        )


@cache
def time_zone_names() -> list[str]:
    """The IANA zones a player may choose (``zoneinfo``'s list), sorted."""
    return sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


def validate_time_zone(name: str) -> None:
    """An IANA zone name (``Europe/Berlin``), or blank for the browser's."""
    if name and name not in time_zone_names():
        raise ValidationError(_("%(name)s is not a time zone we know.") % {"name": repr(name)})
