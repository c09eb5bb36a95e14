"""Messages people read are sentences."""

import pytest

from kit.text import sentence


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("there is no player called 'x'", "There is no player called 'x'."),
        ("sign in to play", "Sign in to play."),
        ("Already a sentence.", "Already a sentence."),
        ("a1:E is not a free position", "a1:E is not a free position."),
        ("", ""),
    ],
)
def test_a_message_becomes_a_sentence_and_notation_keeps_its_case(text, expected):
    assert sentence(text) == expected
