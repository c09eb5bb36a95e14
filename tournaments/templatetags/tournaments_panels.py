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


def _game_context(context, game_id: int) -> dict:
    tournament = selectors.tournament_of_game(game_id)
    user = context.get("user")
    entry = selectors.tournament_entry_for(tournament, user) if tournament else None
    return {
        "request": context.get("request"),
        "tournament": tournament,
        "game_id": game_id,
        "arena": tournament is not None and not tournament.format_rules.has_rounds,
        # Still in the event: "next game" is theirs to follow.
        "playing": entry is not None and entry.withdrawn_at is None,
    }


@register.inclusion_tag("tournaments/_game_link.html", takes_context=True)
def tournament_game_link(context, game_id: int):
    """On a tournament game's page: which event it belongs to, with a link back."""
    return _game_context(context, game_id)


@register.inclusion_tag("tournaments/_game_end.html", takes_context=True)
def tournament_game_end(context, game_id: int):
    """At a tournament game's end: "next game" and "back to the tournament" (in an arena,
    the page goes on to the player's next pairing by itself, as lichess's does)."""
    return _game_context(context, game_id)


@register.filter
def sheet_of(sheets: dict, entry_id: int):
    """An arena player's sheet from ``selectors.arena_sheets`` (None outside an arena)."""
    return sheets.get(entry_id) if sheets else None
