from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"

    def ready(self) -> None:
        from kit import status
        from puzzles import account_hooks  # noqa: F401  (registers its export part)
        from puzzles.selectors import daily_puzzle_ready

        status.entry_add("daily_puzzle", daily_puzzle_ready)

        from games.signals import game_finished
        from puzzles import receivers

        game_finished.connect(receivers.game_finished, dispatch_uid="puzzles-game-finished")
