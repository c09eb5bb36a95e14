from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from games.signals import game_scored
        from ratings import receivers

        game_scored.connect(receivers.game_scored, dispatch_uid="ratings-game-scored")

        from ratings import account_hooks  # noqa: F401  (registers its export part)

        self.ready_lobby_ratings()

    def ready_lobby_ratings(self) -> None:
        """The lobby shows ratings beside seeks and open tables (``games.hooks``)."""
        from games.hooks import rating_source
        from ratings.selectors import rating_shown

        rating_source(rating_shown)
