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
