"""How a player is shown wherever a username appears: ``{{ user|player_link }}``.

Bots always carry the BOT mark, so nobody mistakes a bot for a person.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

register = template.Library()


def _bot_mark() -> SafeString:
    return format_html('<span class="badge badge-bot" title="{}">BOT</span>', _("Computer player"))


@register.filter
def player_name(user) -> SafeString:
    """The username with the BOT mark for bots, without a link (for use inside other links)."""
    if user is None:
        return format_html('<span class="muted">{}</span>', _("nobody"))
    if user.is_bot:
        return format_html('<span class="player">{}</span> {}', user.username, _bot_mark())
    return format_html('<span class="player">{}</span>', user.username)


@register.filter
def player_link(user) -> SafeString:
    """The username linking to the player's profile, with the BOT mark for bots."""
    if user is None:
        return player_name(user)
    href = reverse("accounts:profile", args=[user.username])
    link = format_html('<a class="player" href="{}">{}</a>', href, user.username)
    if user.is_bot:
        return format_html("{} {}", link, _bot_mark())
    return link
