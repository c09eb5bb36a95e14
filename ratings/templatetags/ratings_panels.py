"""Panels this app contributes to pages it does not own (home page, profile)."""

from django import template

register = template.Library()


@register.inclusion_tag("ratings/_home_panel.html", takes_context=True)
def ratings_home_panel(context):
    """This app's part of the home page."""
    return {"request": context.get("request"), "user": context.get("user")}


@register.inclusion_tag("ratings/_profile_panel.html", takes_context=True)
def ratings_profile_panel(context, profile_user):
    """This app's part of a player's public profile."""
    return {"request": context.get("request"), "profile_user": profile_user}
