"""Panels this app contributes to pages it does not own (home page, profile), and its filters."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from accounts.templatetags.accounts_tags import player_name
from engine.games import game_definition
from games import selectors
from games.history_selectors import RESULT_LABELS
from games.models import Game

register = template.Library()


@register.filter
def game_title(kind: str) -> str:
    """A game kind's title as people read it: ``wizards_garden`` -> ``Wizards' Garden``."""
    return game_definition(kind).title


@register.filter
def result_label(result: str) -> str:
    """A history's result as the page shows it: ``win`` -> ``Win``."""
    return RESULT_LABELS.get(result, result)


@register.filter
def player_names(users) -> SafeString:
    """Several players' names (``player_name``), comma-separated."""
    return format_html_join(", ", "{}", ((player_name(user),) for user in users))


@register.inclusion_tag("games/_home_panel.html", takes_context=True)
def games_home_panel(context):
    """The lobby teaser on the home page: a few open tables, how many games are on, the
    player's correspondence games, and the players they follow who are online or playing."""
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    return {
        "request": context.get("request"),
        "user": user,
        "tables": selectors.tables_open(user)[:5],
        "live_count": Game.objects.filter(status=Game.Status.ACTIVE).count(),
        "correspondence": selectors.correspondence_of(user) if signed_in else [],
        "following": selectors.followed_now(user) if signed_in else [],
        "follows_anyone": signed_in and user.follows.exists(),
    }


@register.inclusion_tag("games/_profile_panel.html", takes_context=True)
def games_profile_panel(context, profile_user):
    """This app's part of a player's public profile."""
    return {"request": context.get("request"), "profile_user": profile_user}
