from django.contrib import admin
from django.urls import include, path

from games.urls import home

urlpatterns = [
    home,
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("ratings/", include("ratings.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
]
