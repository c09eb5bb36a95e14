"""Panels this app contributes to pages it does not own (home page, profile), and its filters."""

from django import template
from django.urls import reverse

from engine.games import GAMES
from games.history_selectors import game_stats_for
from ratings.charts import rating_chart
from ratings.models import RatingKind, game_kinds
from ratings.selectors import best_win_for, leaderboard, rating_history, ratings_of

register = template.Library()

HOME_PANEL_SIZE = 5


@register.filter
def rating_change(value) -> str:
    """A rating change as players read it: ``+12``, ``−5`` or ``±0`` (rounded)."""
    if value is None:
        return ""
    points = round(value)
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "±0"


@register.inclusion_tag("ratings/_home_panel.html", takes_context=True)
def ratings_home_panel(context):
    """This app's part of the home page: the top of the house's first game's leaderboard."""
    return {
        "request": context.get("request"),
        "user": context.get("user"),
        "top": list(leaderboard(kind=GAMES[0].name)[:HOME_PANEL_SIZE]),
    }


@register.inclusion_tag("ratings/_profile_panel.html", takes_context=True)
def ratings_profile_panel(context, profile_user):
    """This app's part of a player's public profile: ratings, their history and results."""
    rows = []
    for kind, rating in ratings_of(user=profile_user).items():
        row = {
            "kind": RatingKind(kind),
            "rating": rating,
            "chart": rating_chart(rating_history(user=profile_user, kind=kind)),
        }
        if kind in game_kinds():
            row["stats"] = game_stats_for(user=profile_user, kind=kind)
            row["best_win"] = best_win_for(user=profile_user, kind=kind)
        rows.append(row)
    return {
        "request": context.get("request"),
        "profile_user": profile_user,
        "rows": rows,
        "history_url": reverse("games:history", args=[profile_user.username]),
    }
