"""Links to the rules pages and lessons, for other apps' pages (lobby, game, replay), and the
engine's words the learn pages say in the page's language."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext

from engine.games import all_games
from learn import selectors

register = template.Library()


@register.filter
def rules_url(kind: str) -> str:
    """The rules page of the game stored as ``kind``, or "" when the game has none."""
    return selectors.rules_url(kind)


@register.filter
def players(definition) -> str:
    """How many play the game, as a sentence says it: ``2 players``, ``2 to 4 players``."""
    low, high = definition.seats
    if low == high:
        return ngettext("%(count)s player", "%(count)s players", high) % {"count": high}
    return gettext("%(fewest)s to %(most)s players") % {"fewest": low, "most": high}


@register.simple_tag
def option_label(definition, name: str) -> str:
    """The lobby's label of the game's rule option ``name``, in the page's language."""
    return gettext(next(option.label for option in definition.rule_options if option.name == name))


@register.inclusion_tag("learn/_rules_note.html")
def learn_note():
    """A sentence linking every game's rules page, and the lessons. The games are listed
    as the language lists them (Django's own "A, B or C")."""
    links = [
        format_html('<a href="{}">{}</a>', reverse("learn:rules", args=[d.name]), d.title)
        for d in all_games()
        if selectors.rules_template(d.name)
    ]
    # Every link is escaped by format_html, the separators are Django's own translations.
    return {"games": mark_safe(get_text_list(links)), "index_url": reverse("learn:index")}
