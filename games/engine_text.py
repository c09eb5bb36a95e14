"""The engine's words in the site's language (docs/I18N.md, docs/ENGINE_API.md "Errors").

The engine speaks English only. Its errors carry a stable code and params
(``engine.errors``): ``error_message`` says an error in the active language from
``engine.errors.MESSAGES``, whose templates the engine marks with ``gettext_noop`` so
that ``make messages`` gathers them. ``ENGINE_TEXTS`` lists every other English text the
engine hands the site to show (tile type names, rule options, score columns, end
reasons, seat counts) so that the catalogue holds them: templates say
``{% translate value %}``, Python ``gettext(value)``; a page script that gets one in a
frame sent to many viewers at once (``final.end_reason``) says it with its own gettext.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from engine.errors import MESSAGES, EngineError, RecordError

#: Params that hold the engine's own English words (an end reason, ``2 to 4``): they are
#: in ``ENGINE_TEXTS`` and translated with the message.
_WORD_PARAMS = ("end_reason", "seats")

#: Every English text the engine hands the site for display (names stay as they are: the
#: games' titles "Topiary" and "Wizards' Garden", and notation). A test walks the game
#: definitions, so a new option or column cannot go untranslated.
ENGINE_TEXTS = (
    # Topiary's tile types (engine.topiary.TYPE_NAMES)
    gettext_noop("Elephant"),
    gettext_noop("Polyhedron"),
    gettext_noop("Swan"),
    gettext_noop("Pom Pom"),
    gettext_noop("Pyramid"),
    gettext_noop("T-Rex"),
    gettext_noop("Spiral"),
    gettext_noop("Whale"),
    # Topiary's rule options: label, then what it does
    gettext_noop("Corner diagonals"),
    gettext_noop("visitors may stand at the 8 one-tile corner diagonals."),
    gettext_noop("Must take"),
    gettext_noop("a visitor whose line holds a face-down tile must take one."),
    gettext_noop("Draft the hands"),
    gettext_noop("pass tiles round to choose hands."),
    gettext_noop("Ties share the win"),
    gettext_noop("no later-in-turn tie-break."),
    # Topiary's score columns
    gettext_noop("Visitors"),
    gettext_noop("Bonus"),
    gettext_noop("Hand"),
    # Wizards' Garden's rule option
    gettext_noop("Setup seeds apart"),
    gettext_noop("setup seeds may not touch."),
    # Wizards' Garden's score columns (Dovetail and Ravenclaw are the seeds' sides)
    gettext_noop("Dovetail (W)"),
    gettext_noop("Ravenclaw (B)"),
    gettext_noop("Staff"),
    gettext_noop("Holds the staff"),
    # Wizards' Garden's end reasons (engine.wizards_garden.END_REASONS)
    gettext_noop("the basket is empty"),
    gettext_noop("the board is empty"),
    gettext_noop("the board is full"),
    # How many players a game is for (GameDefinition.seats_text), where it is not one number
    gettext_noop("2 to 4"),
)


def _word(value):
    return gettext(value) if isinstance(value, str) and value else value


def error_message(error: EngineError) -> str:
    """``error``'s message in the active language; an error without a known code (a game
    defined outside the engine) as it is."""
    template = MESSAGES.get(error.code)
    if template is None:
        return str(error)
    # engine.errors marks MESSAGES with gettext_noop, so the catalogue holds each one.
    template = gettext(template)
    params = dict(error.params)
    for name in _WORD_PARAMS:
        if name in params:
            params[name] = _word(params[name])
    if error.inner is not None:
        params["reason"] = error_message(error.inner)
    text = template % params
    if isinstance(error, RecordError) and error.ply:
        text = gettext(MESSAGES["at_ply"]) % {"ply": error.ply, "reason": text}
    return text
