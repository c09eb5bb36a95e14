"""Players for tests, with a real password hash worked out once per run, not once per player.

Django's PBKDF2 hasher takes about a second per password on a CI machine, by design, and
the suite creates hundreds of players; they all share one password, so they share its
hash (hasher, iterations, salt and all). Logging in with that password checks it exactly
as for anyone else; tests of passwords themselves make their own users.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import make_password

from accounts.models import User

#: The password of every player these helpers make.
PASSWORD = "garden-path-42"

_hashes: dict[tuple[str, ...], str] = {}


def password_hash() -> str:
    """``PASSWORD`` hashed by the first hasher of the settings in force."""
    hashers = tuple(settings.PASSWORD_HASHERS)
    if hashers not in _hashes:
        _hashes[hashers] = make_password(PASSWORD)
    return _hashes[hashers]


def create_player(username: str, email: str = "", **extra) -> User:
    """``User.objects.create_user(username, email, PASSWORD, **extra)``, less the hashing:
    the same normalized names, saved once with the shared hash."""
    user = User(
        username=User.normalize_username(username),
        email=User.objects.normalize_email(email),
        password=password_hash(),
        **extra,
    )
    user.save()
    return user
