"""Links to the rules pages and lessons, for other apps' pages (the lobby)."""

from django import template

from engine.games import all_games
from learn.lessons import LESSONS

register = template.Library()


@register.inclusion_tag("learn/_rules_note.html")
def learn_note():
    """A sentence linking every game that has a lesson to its rules page, and the lessons."""
    return {"definitions": [d for d in all_games() if d.name in LESSONS]}
