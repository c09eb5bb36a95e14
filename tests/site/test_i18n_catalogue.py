"""The German catalogue is complete and current (issue 17, docs/I18N.md).

Extraction runs the Makefile's own `make messages` step on a copy of the project, so
a string marked in a template, a module or a page script but missing from the
committed catalogue fails here, as does an untranslated or fuzzy entry, a translation
whose placeholders differ from its English, and committed .mo files that are older
than their .po files.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import need
from tests.support.i18n import LOCALE, entries

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("django", "djangojs")
#: What `make messages` leaves out of extraction (Makefile, MAKEMESSAGES).
NOT_COPIED = {".git", ".venv", "staticfiles", "var", "node_modules", "__pycache__", "bench"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{(\w*)\}")


def gettext_installed() -> bool:
    return all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msgfmt", "msgattrib"))


def key(entry: dict) -> tuple:
    return entry.get("msgctxt"), entry["msgid"], entry.get("msgid_plural")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """The project copied aside, with `make messages`'s extraction run over the copy."""
    need(gettext_installed(), "GNU gettext (xgettext, msgmerge, msgfmt) is not installed")
    copy = tmp_path_factory.mktemp("catalogue") / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_COPIED, "*.pyc", "db.sqlite3*"))
    make = ROOT / "Makefile"
    options = re.search(
        r"MAKEMESSAGES = \$\(BIN\)/python manage.py (.*?)\n\n", make.read_text(), re.S
    )
    assert options, "the Makefile's MAKEMESSAGES line moved"
    words = [
        part.strip("'")
        for part in re.findall(r"'[^']*'|\S+", options.group(1).replace("\\\n", " "))
    ]
    for domain in DOMAINS:
        result = subprocess.run(
            [sys.executable, "manage.py", *words, "--domain", domain],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
    return copy / "locale" / "de" / "LC_MESSAGES"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_string_is_in_the_committed_catalogue(extracted, domain):
    committed = {key(entry) for entry in entries(LOCALE / f"{domain}.po")}
    fresh = {key(entry) for entry in entries(extracted / f"{domain}.po")}
    missing = sorted(fresh - committed, key=str)
    stale = sorted(committed - fresh, key=str)
    assert not missing, (
        f"marked but not in locale/de/LC_MESSAGES/{domain}.po (run `make messages` and "
        f"translate): {missing[:20]}"
    )
    assert not stale, f"in {domain}.po but no longer marked (run `make messages`): {stale[:20]}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_german_entry_is_translated_and_not_fuzzy(domain):
    problems = []
    for entry in entries(LOCALE / f"{domain}.po"):
        label = repr(entry["msgid"])
        if entry["fuzzy"]:
            problems.append(f"fuzzy: {label}")
        count = 2 if "msgid_plural" in entry else 1
        forms = [entry["msgstr"].get(index, "") for index in range(count)]
        if not all(form.strip() for form in forms):
            problems.append(f"untranslated: {label}")
            continue
        english = set(PLACEHOLDER.findall(entry["msgid"] + entry.get("msgid_plural", "")))
        for form in forms:
            german = set(PLACEHOLDER.findall(form))
            # A singular may say "one" in words instead of %(count)s; nothing new may appear.
            if not german <= english or (english - german and "msgid_plural" not in entry):
                problems.append(f"placeholders differ: {label} -> {form!r}")
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_matches_its_source(domain, tmp_path):
    need(gettext_installed(), "GNU gettext (msgfmt) is not installed")
    fresh = tmp_path / f"{domain}.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(fresh), str(LOCALE / f"{domain}.po")], check=True
    )
    with open(fresh, "rb") as new, open(LOCALE / f"{domain}.mo", "rb") as old:
        assert gettext.GNUTranslations(new)._catalog == gettext.GNUTranslations(old)._catalog, (
            f"locale/de/LC_MESSAGES/{domain}.mo is not compiled from its .po: "
            "run `make compilemessages`"
        )
