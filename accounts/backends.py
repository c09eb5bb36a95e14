"""Authentication that never lets a house bot in, whatever its password."""

from __future__ import annotations

import functools

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection

from accounts.models import Preferences, User
from kit.rows import Columns


class PlayerBackend(ModelBackend):
    """Django's model backend, refusing house bots (the site moves them, nobody signs in).

    An outside bot's owner still signs in, to manage the account's API tokens.
    """

    def user_can_authenticate(self, user) -> bool:
        house_bot = getattr(user, "moved_by_site", False)
        return not house_bot and super().user_can_authenticate(user)

    def get_user(self, user_id):
        """The signed-in user of a request or socket, with their preferences.

        Every page and every socket's arrival signs its user in, and then reads their
        preferences (the language they speak, the page's theme): one statement for both,
        written once, instead of two querysets built and compiled each time.
        """
        user = user_with_preferences(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


@functools.cache
def _statement(vendor: str) -> tuple[str, Columns, Columns]:
    quote = connection.ops.quote_name
    user, preferences = Columns(User, "u"), Columns(Preferences, "p")
    owner = Preferences._meta.get_field("user")
    return (
        f"SELECT {', '.join(user.sql + preferences.sql)} "
        f"FROM {quote(User._meta.db_table)} AS u "
        f"LEFT JOIN {quote(Preferences._meta.db_table)} AS p "
        f"ON p.{quote(owner.column)} = u.{quote(User._meta.pk.column)} "
        f"WHERE u.{quote(User._meta.pk.column)} = %s",
        user,
        preferences,
    )


def user_with_preferences(user_id) -> User | None:
    """The user and their saved preferences (None cached when they saved none, as
    ``select_related`` does); None if there is no such user."""
    try:
        user_id = User._meta.pk.to_python(user_id)
    except ValidationError:  # a session naming no valid id signs nobody in
        return None
    sql, user_columns, preferences_columns = _statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    count = len(user_columns.fields)
    user = user_columns.instance(row[:count])
    preferences = None
    if row[count] is not None:
        preferences = preferences_columns.instance(row[count:])
        Preferences._meta.get_field("user").set_cached_value(preferences, user)
    User._meta.get_field("preferences").set_cached_value(user, preferences)
    return user
