"""Pages and the script catalogue speak the reader's language (issue 17, docs/I18N.md)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def script_catalogue_address(html: str) -> str:
    found = re.search(r'<script src="(/jsi18n/[^"]*)"', html)
    assert found, "base.html loads no script catalogue"
    return found.group(1).replace("&amp;", "&")


@pytest.mark.parametrize(
    ("accept", "lang", "turn"), [("de", "de", "Du bist am Zug"), ("en", "en", "Your turn")]
)
def test_the_page_and_its_scripts_texts_follow_the_browsers_language(accept, lang, turn):
    client = Client(HTTP_ACCEPT_LANGUAGE=accept)
    html = client.get("/puzzles/about/").content.decode()
    assert f'<html lang="{lang}"' in html
    address = script_catalogue_address(html)
    # The address names the language, so a browser's cached copy is never another's.
    assert f"l={lang}" in address
    script = client.get(address).content.decode("utf-8")
    assert turn in script or lang == "en"
    if lang == "en":
        assert "Du bist am Zug" not in script


def test_a_cookie_language_switch_changes_the_catalogue_address():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    english = script_catalogue_address(client.get("/").content.decode())
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    german = script_catalogue_address(client.get("/").content.decode())
    assert english != german
    assert "Du bist am Zug" in client.get(german).content.decode("utf-8")
