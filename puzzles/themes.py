"""The training puzzles' themes: each slug's name and one-line description, in one place.

The engine tags a puzzle with slugs by rules over its proven solution
(``engine.topiary.mining.themes``, ``engine.wizards_garden.puzzles.themes``); this module
says what each slug means to a player, in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Theme:
    """One theme: its slug, the game it belongs to, its name and what it means."""

    slug: str
    kind: str
    name: Promise
    description: Promise


THEMES: dict[str, Theme] = {
    theme.slug: theme
    for theme in (
        Theme(
            "type-bonus",
            "topiary",
            _("Type bonus"),
            _("The best line makes a visitor see two or more tiles of one type."),
        ),
        Theme(
            "hand-points",
            "topiary",
            _("Hand points"),
            _("A planted or kept tile makes tiles in your hand score."),
        ),
        Theme(
            "blocking",
            "topiary",
            _("Blocking"),
            _("The best line hides something an opponent's visitor saw."),
        ),
        Theme(
            "take-and-plant",
            "topiary",
            _("Take and plant"),
            _("The best line takes a tile and plants one from your hand in its place."),
        ),
        Theme(
            "place-only",
            "topiary",
            _("Place only"),
            _("The best line takes nothing: it is all about where the visitors stand."),
        ),
        Theme("long", "topiary", _("Long"), _("Three or more turns to plan.")),
        Theme(
            "harvest",
            "wizards_garden",
            _("Harvest"),
            _("The best line harvests a line of four."),
        ),
        Theme(
            "staff",
            "wizards_garden",
            _("Wizard's Staff"),
            _("The best line wins the Wizard's Staff."),
        ),
        Theme(
            "double-harvest",
            "wizards_garden",
            _("Double harvest"),
            _("One planting harvests two lines at once."),
        ),
    )
}


def theme_slugs(kind: str | None = None) -> list[str]:
    """Every theme slug (of one game's kind when given), in this module's order."""
    return [slug for slug, theme in THEMES.items() if kind is None or theme.kind == kind]


def theme_name(slug: str) -> str:
    """A slug's name in the reader's language (the slug itself if unknown)."""
    theme = THEMES.get(slug)
    return str(theme.name) if theme else slug
