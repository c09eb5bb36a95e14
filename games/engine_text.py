"""The engine's words in the site's language (docs/I18N.md, docs/ENGINE_API.md "Errors").

The engine speaks English only. Its errors carry a stable code and params
(``engine.errors``): ``error_message`` says an error in the active language from
``engine.errors.MESSAGES``. Every English text a game hands the site, its messages and
the words its descriptor shows (tile names, rule options, score columns, end reasons), is
marked with the engine's ``gettext_noop`` in the game's own package, so ``make messages``
gathers it there and a new game needs no line here: templates say
``{% translate value %}``, Python ``gettext(value)``; a page script that gets one in a
frame sent to many viewers at once (``final.end_reason``) says it with its own gettext.
"""

from __future__ import annotations

from django.utils.translation import gettext

from engine.errors import MESSAGES, EngineError, RecordError

#: Params that hold the engine's own English words (an end reason): marked where the game
#: writes them, and translated with the message. (``seats`` is a number: only a game of one
#: table size refuses a number of players.)
_WORD_PARAMS = ("end_reason",)


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
