"""Where each app lives: see docs/ARCHITECTURE.md for the URL space of each."""

from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog
from health_check.views import HealthCheckView

from accounts import i18n
from api.urls import api_urls
from kit import metrics
from topiary_site import health, views

urlpatterns = [
    path("", views.home, name="home"),
    path("status.json", views.status, name="status"),
    path("i18n/setlang/", i18n.set_language, name="set_language"),
    # The JavaScript texts (gettext, ngettext, interpolate as globals): cached per
    # language, as the catalogue changes only with a deploy.
    path(
        "jsi18n/",
        cache_page(60 * 60 * 24)(JavaScriptCatalog.as_view()),
        name="javascript-catalog",
    ),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("leaderboards/", include("ratings.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("alerts.urls")),
    path("", include("api.urls")),
    path("", include("analysis.urls")),
    path("", include("learn.urls")),
    path("api/", api_urls),
    path("admin/", admin.site.urls),
    # Operations: see topiary_site/health.py and kit/metrics.py.
    path("health/live/", HealthCheckView.as_view(checks=()), name="health_live"),
    path(
        "health/ready/",
        HealthCheckView.as_view(checks=health.readiness_checks()),
        name="health_ready",
    ),
    path("health/", HealthCheckView.as_view(checks=health.full_checks()), name="health"),
    path("health/beat/", HealthCheckView.as_view(checks=health.beat_checks()), name="health_beat"),
    path("metrics", metrics.metrics_view, name="metrics"),
]
