from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Register the tasks in every process: games.services queues them by name.
        from games import tasks  # noqa: F401
