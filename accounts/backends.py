"""Authentication that never lets a house bot in, whatever its password."""

from django.contrib.auth.backends import ModelBackend


class PlayerBackend(ModelBackend):
    """Django's model backend, refusing house bots (the site moves them, nobody signs in).

    An outside bot's owner still signs in, to manage the account's API tokens.
    """

    def user_can_authenticate(self, user) -> bool:
        house_bot = getattr(user, "moved_by_site", False)
        return not house_bot and super().user_can_authenticate(user)
