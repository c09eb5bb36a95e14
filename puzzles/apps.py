from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    name = "puzzles"
