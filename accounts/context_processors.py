"""``prefs`` for every template: the signed-in player's preferences, or the defaults."""

from accounts import selectors


def preferences(request):
    user = getattr(request, "user", None)
    return {"prefs": selectors.preferences_of(user=user)}
