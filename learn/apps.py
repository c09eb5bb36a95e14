from django.apps import AppConfig


class LearnConfig(AppConfig):
    name = "learn"
    verbose_name = "Learn to play"

    def ready(self) -> None:
        from learn import account_hooks  # noqa: F401  (registers its export part)
