"""Links to the rules pages and lessons, for other apps' pages (lobby, game, replay)."""

from django import template

from engine.games import all_games
from learn import selectors

register = template.Library()


@register.filter
def rules_url(kind: str) -> str:
    """The rules page of the game stored as ``kind``, or "" when the game has none."""
    return selectors.rules_url(kind)


@register.inclusion_tag("learn/_rules_note.html")
def learn_note():
    """A sentence linking every game's rules page, and the lessons."""
    return {"definitions": [d for d in all_games() if selectors.rules_template(d.name)]}
