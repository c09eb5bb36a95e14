"""Game history, replays, record download and import (included from games/urls.py)."""

from django.urls import path

from games import history_views

urlpatterns = [
    path("games/history/<str:username>/", history_views.history, name="history"),
    path("games/<int:game_id>/replay/", history_views.replay, name="replay"),
    path("games/<int:game_id>/record.json", history_views.record, name="record"),
    path("games/import/", history_views.import_record, name="import"),
]
