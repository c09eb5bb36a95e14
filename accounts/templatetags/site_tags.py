"""Tags for the page frame (templates/base.html)."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_link(context, href: str, label: str) -> str:
    """A navigation link, marked ``aria-current="page"`` while the visitor is inside its section."""
    request = context.get("request")
    current = request is not None and href != "/" and request.path.startswith(href)
    if current:
        return format_html('<a href="{}" aria-current="page">{}</a>', href, label)
    return format_html('<a href="{}">{}</a>', href, label)
