"""The German catalogue as the tests read it, and what counts as a word a translation changes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The committed German catalogue.
LOCALE = ROOT / "locale" / "de" / "LC_MESSAGES"


def entries(po: Path) -> list[dict]:
    """Each entry of a .po file as {msgctxt, msgid, msgid_plural, msgstr: [..], fuzzy}."""
    found: list[dict] = []
    current: dict | None = None
    field = None

    def unquote(text: str) -> str:
        return (
            bytes(text.strip()[1:-1], "utf-8")
            .decode("unicode_escape")
            .encode("latin-1")
            .decode("utf-8")
        )

    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if current and "msgid" in current:
                found.append(current)
            current, field = None, None
            continue
        current = current if current is not None else {"msgstr": {}, "fuzzy": False}
        if line.startswith("#,") and "fuzzy" in line:
            current["fuzzy"] = True
        elif line.startswith("#"):
            continue
        elif line.startswith(("msgctxt ", "msgid ", "msgid_plural ")):
            field, _, rest = line.partition(" ")
            current[field] = unquote(rest)
        elif line.startswith("msgstr"):
            head, _, rest = line.partition(" ")
            index = int(head[7:-1]) if head.startswith("msgstr[") else 0
            field = ("msgstr", index)
            current["msgstr"][index] = unquote(rest)
        elif line.startswith('"') and field:
            if isinstance(field, tuple):
                current["msgstr"][field[1]] += unquote(line)
            else:
                current[field] += unquote(line)
    return [entry for entry in found if entry["msgid"]]  # the header has an empty msgid


#: Words that stay as they are in every language: names, the game's terms of art that
#: are names, units and notation.
ALLOWED = {
    "English",
    "Deutsch",
    "Topiary",
    "Online",
    "Wizards",
    "Garden",
    "Elo",
    "BOT",
    "Bot",
    "Bots",
    "API",
    "JSON",
    "PGN",
    "TOTP",
    "OK",
    "CSV",
    "ID",
    "UTC",
    "px",
    "ms",
    "RandomBot",
    "GreedyBot",
    "StrongBot",
    "Glicko",
    "lichess",
    "Arena",
    "Board",
    "Game",
    "GitHub",
    "ZIP",
    "zip",
    "T-Rex",
    "Rex",
}
#: A word of running text (apostrophes and hyphens inside it).
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
