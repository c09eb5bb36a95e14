"""Times in the viewer's own zone: the server writes a ``<time>`` in UTC, and
``static/tournaments/local_time.js`` rewrites it in the browser's zone."""

from datetime import UTC

from django import template
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.translation import pgettext

register = template.Library()

#: The UTC text of each style; the browser (``local_time.js``) writes "moment" as a date
#: and time, "clock" as the time of day, "day" as "tonight 20:00", "timeline" as
#: "in 12 min · tonight 20:00".
STYLES = {
    "moment": lambda: pgettext("date format", "j F Y, H:i"),
    "clock": lambda: "H:i",
    "day": lambda: pgettext("date format", "j M H:i"),
    "timeline": lambda: pgettext("date format", "j M H:i"),
}


@register.simple_tag
def local_time(moment, style: str = "moment"):
    """``<time datetime="…Z" data-local="style">28 November 2026, 18:00 UTC</time>``: the UTC
    text stands without JavaScript; the page's script puts the viewer's time in its place."""
    if moment is None:
        return ""
    moment = moment.astimezone(UTC)
    text = date_format(moment, STYLES[style]())
    return format_html(
        '<time datetime="{}" data-local="{}">{} UTC</time>',
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        style,
        text,
    )


@register.simple_tag
def local_zone():
    """Where the page names the zone its times are in: UTC until the script says otherwise."""
    return format_html("<span data-local-zone>{}</span>", "UTC")
