"""The analysis of a finished game, beside its replay (docs/ANALYSIS.md)."""

from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("games/<int:game_id>/analysis.json", views.analysis_state, name="state"),
    path("games/<int:game_id>/analysis/", views.analysis_request, name="request"),
]
