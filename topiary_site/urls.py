"""Where each app lives: see docs/ARCHITECTURE.md for the URL space of each."""

from django.contrib import admin
from django.urls import include, path

from api.urls import api_urls
from topiary_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("status.json", views.status, name="status"),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("leaderboards/", include("ratings.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("api.urls")),
    path("api/", api_urls),
    path("admin/", admin.site.urls),
]
