"""Pages of the site itself rather than of one app."""

from django.shortcuts import render


def home(request):
    """The home page: a welcome, then each app's panel (lobby, daily puzzle, ...)."""
    return render(request, "home.html")
