from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Register the tasks in every process: games.services queues them by name.
        from accounts.hooks import account_closing
        from games import (
            account_hooks,
            chat_rooms,  # noqa: F401
            tasks,  # noqa: F401
            user_events,
        )
        from games.signals import game_finished

        account_closing.connect(account_hooks.account_closing, dispatch_uid="games-account-closing")
        game_finished.connect(user_events.game_over, dispatch_uid="games-user-events-game-over")
