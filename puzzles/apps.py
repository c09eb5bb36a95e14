from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"

    def ready(self) -> None:
        from puzzles import account_hooks  # noqa: F401  (registers its export part)
