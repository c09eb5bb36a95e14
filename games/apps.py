from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Register the tasks in every process: games.services queues them by name.
        from celery.signals import worker_process_init

        from accounts.hooks import account_closing, player_blocked, vacation_changed
        from games import (
            account_hooks,
            chat_rooms,  # noqa: F401
            live,
            tasks,  # noqa: F401
            thinking,
            user_events,
        )
        from games.metrics import LiveGames
        from games.signals import game_finished
        from kit import metrics
        from kit.signals import embedded_runner_started

        account_closing.connect(account_hooks.account_closing, dispatch_uid="games-account-closing")
        player_blocked.connect(account_hooks.player_blocked, dispatch_uid="games-player-blocked")
        vacation_changed.connect(
            account_hooks.vacation_changed, dispatch_uid="games-vacation-changed"
        )
        game_finished.connect(user_events.game_over, dispatch_uid="games-user-events-game-over")
        metrics.collector_add(LiveGames())
        embedded_runner_started.connect(thinking.runner_started, dispatch_uid="games-thinking")
        # A Celery pool process keeps one event loop, and so its Redis connections, for
        # its pushes.
        worker_process_init.connect(
            lambda **_: live.pushes_from_own_loop(), weak=False, dispatch_uid="games-pushes"
        )
