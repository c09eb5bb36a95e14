from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import game_finished
        from tournaments import chat_rooms, receivers  # noqa: F401

        game_finished.connect(receivers.game_finished, dispatch_uid="tournaments-game-finished")

        from accounts.hooks import account_closing
        from tournaments import account_hooks

        account_closing.connect(
            account_hooks.account_closing, dispatch_uid="tournaments-account-closing"
        )
