"""Pages of the site itself rather than of one app."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from kit import status as status_entries


def home(request):
    """The home page: a welcome, then each app's panel (lobby, daily puzzle, ...)."""
    return render(request, "home.html")


@require_GET
def status(request):
    """What the periodic jobs have made ready, for operators and monitoring (no secrets:
    whether tomorrow's puzzle exists, never what it is). The apps add their entries
    (``kit.status``)."""
    return JsonResponse(
        {
            "server_time": int(timezone.now().timestamp() * 1000),
            "jobs": sorted(settings.CELERY_BEAT_SCHEDULE),
            "jobs_run_by": "web process" if settings.EMBEDDED_RUNNER else "celery beat",
            **status_entries.entries(),
        }
    )
