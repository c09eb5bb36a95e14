from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class LearnConfig(AppConfig):
    name = "learn"
    verbose_name = gettext_lazy("Learn to play")

    def ready(self) -> None:
        from learn import account_hooks  # noqa: F401  (registers its export part)
