from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "alerts"

    def ready(self) -> None:
        from accounts.hooks import account_closing
        from alerts import account_hooks, receivers, tasks  # noqa: F401
        from games import signals as games_signals
        from tournaments.signals import tournament_started

        games_signals.turn_came.connect(receivers.turn_came, dispatch_uid="alerts-turn")
        games_signals.challenge_sent.connect(
            receivers.challenge_sent, dispatch_uid="alerts-challenge"
        )
        games_signals.game_started.connect(receivers.game_started, dispatch_uid="alerts-started")
        games_signals.game_finished.connect(receivers.game_finished, dispatch_uid="alerts-ended")
        tournament_started.connect(receivers.tournament_started, dispatch_uid="alerts-tournament")
        account_closing.connect(
            account_hooks.account_closing, dispatch_uid="alerts-account-closing"
        )
