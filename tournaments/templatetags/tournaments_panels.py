"""Panels this app contributes to pages it does not own (home page, profile)."""

from django import template

from tournaments import seasons, selectors

register = template.Library()


@register.inclusion_tag("tournaments/_home_panel.html", takes_context=True)
def tournaments_home_panel(context):
    """Running tournaments and the next ones to start."""
    listing = selectors.tournaments_listing()
    return {
        "request": context.get("request"),
        "user": context.get("user"),
        "soon": [*listing["running"], *listing["upcoming"]][:5],
    }


@register.inclusion_tag("tournaments/_profile_panel.html", takes_context=True)
def tournaments_profile_panel(context, profile_user):
    """The trophies a player won and the tournaments they entered, with their place."""
    return {
        "request": context.get("request"),
        "profile_user": profile_user,
        "listed": selectors.tournaments_of(profile_user),
        "trophies": seasons.trophies_of(profile_user),
    }
