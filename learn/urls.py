from django.urls import path, register_converter

from learn import views


class GameSlugConverter:
    """A game in an address, as ``topiary`` or ``wizards-garden``; ``{% url %}`` also takes
    the stored kind (``wizards_garden``), so templates can pass ``game.kind``."""

    regex = r"[a-z][a-z0-9-]*"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value.replace("_", "-")


register_converter(GameSlugConverter, "game")

app_name = "learn"

urlpatterns = [
    path("rules/<game:slug>/", views.rules_page, name="rules"),
    path("learn/", views.learn_index, name="index"),
    path("learn/<game:slug>/", views.lesson_page, name="lesson"),
    path("learn/<game:slug>/<int:number>/check/", views.lesson_check, name="check"),
]
