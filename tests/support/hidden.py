"""Hidden tiles: what a viewer may not know at a ply, and whether a text names any of it."""

from __future__ import annotations

import re

#: A tile in notation, face up (R3) or face down (r3). Lower-case e is left out: "e3" is a cell.
TILE_TOKEN = re.compile(r"(?<![A-Za-z0-9])([EHNOPRSW][1-5]|[hnoprsw][1-5])(?![0-9])")
#: How the engine's refusal reasons quote an example of the notation.
EXAMPLE = re.compile(r"(?:like|expected)(?: [a-z ]+?)? '[^']*'(?:(?:, | or )'[^']*')*")


def tiles_in(value) -> set[str]:
    """Every tile named anywhere in a JSON value, upper-cased (face-down ones included)."""
    if isinstance(value, str):
        return {value.upper()} if re.fullmatch(r"[A-Za-z][1-5]", value) else set()
    if isinstance(value, dict):
        return set().union(*(tiles_in(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(item) for item in value)) if value else set()
    return set()


def forbidden_for(full: dict, seat: int | None) -> set[str]:
    """The tiles ``seat`` (None: anyone without a seat) may not know where they are."""
    known = {cell for row in full["garden"] for cell in row if re.fullmatch(r"[A-Z][1-5]", cell)}
    if seat is not None:
        known |= set(full["hands"][seat])
        draft = full.get("draft") or {}
        for part in ("received", "passed_on"):
            known |= tiles_in((draft.get(part) or [None] * (seat + 1))[seat])
    return tiles_in(full) - known


def leaked(text: str, forbidden: set[str]) -> set[str]:
    """The forbidden tiles ``text`` names (a page's tags are left out, its text kept)."""
    text = re.sub(r"<[a-zA-Z/][^>]*>", " ", text)
    # The engine's reasons show the notation by example ("like '=R3'"): fixed text, no tile.
    text = EXAMPLE.sub(" ", text)
    return {token.upper() for token in TILE_TOKEN.findall(text)} & forbidden
