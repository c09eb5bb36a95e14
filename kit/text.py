"""Wording shared by every app: messages people read are sentences."""


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop (or ``?``/``!``) at the end.

    Refusals are often built from an engine's lower-case error ("there is no player called
    'x'"); the code keeps those as they are and the message shown to people reads properly.
    """
    text = (text or "").strip()
    if not text:
        return text
    first_word = text.split(maxsplit=1)[0]
    # Notation ("a1:E", "c5:S") and quoted names keep their case: only a plain word is capitalised.
    if first_word.isalpha():
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!" else text + "."


#: Clock starts lichess writes as a fraction of a minute rather than a decimal.
_MINUTES_SAID = {15: "¼", 30: "½", 45: "¾", 90: "1.5"}


def clock_notation(initial_seconds: int, increment_seconds: int) -> str:
    """A live clock as every page writes it, lichess's way: ``½+1``, ``3+2``, ``0.33+0``.

    Minutes on the clock at the start (¼, ½ and ¾ for 15, 30 and 45 seconds, else at most
    two decimals), then the seconds added per move.
    """
    minutes = _MINUTES_SAID.get(initial_seconds) or f"{round(initial_seconds / 60, 2):g}"
    return f"{minutes}+{increment_seconds or 0}"
