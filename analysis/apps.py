from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self) -> None:
        # Register the task in every process: analysis.services queues it by name.
        from analysis import tasks  # noqa: F401
