"""Authentication that never lets a bot account in, whatever its password."""

from django.contrib.auth.backends import ModelBackend


class PlayerBackend(ModelBackend):
    """Django's model backend, refusing bots (they play through the server, not a session)."""

    def user_can_authenticate(self, user) -> bool:
        return not getattr(user, "is_bot", False) and super().user_can_authenticate(user)
