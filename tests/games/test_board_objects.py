"""One board object per game (issue 41): each game's board lives in static/board/<game>.js and
every page script finds it by the game's name (static/board/boards.js, ``boardOf(kind)``), so
no page script outside static/board/ names a game, and the next game needs a board module,
not a branch in every page."""

from __future__ import annotations

import re
from pathlib import Path

from engine.games import GAMES

STATIC = Path(__file__).resolve().parents[2] / "static"

#: What naming a game in a page script looks like: a branch on the kind against a literal, a
#: game's name as a literal, or a game's board module imported by its name. (A game's id
#: compared with another, ``answer.game !== thisGame``, names no game.)
NAMING = re.compile(
    r"""\b(kind|game)\s*[!=]==\s*["'`]|["'`](topiary|wizards_garden)["'`]"""
    r"""|board/(topiary|wizards_garden)\.js"""
)

#: What every page asks of a game's board object.
EXPORTS = ("gamePage", "lesson", "figure", "replayBoard", "replayFocus", "markMove")


def test_no_page_script_outside_static_board_names_a_game():
    scripts = [
        path for path in STATIC.rglob("*.js") if "board" not in path.relative_to(STATIC).parts
    ]
    assert len(scripts) > 5
    naming = [
        f"{path.relative_to(STATIC)}:{number}: {line.strip()}"
        for path in scripts
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if NAMING.search(line)
    ]
    assert not naming, "\n".join(naming)


def test_the_check_finds_a_page_script_that_names_a_game():
    for line in (
        'if (kind === "topiary") draw();',
        "const BOARDS = { 'wizards_garden': x };",
        'import * as topiary from "../board/topiary.js";',
    ):
        assert NAMING.search(line), line
    assert not NAMING.search("const board = boardOf(kind).gamePage(page);")
    assert not NAMING.search("if (answer.game && answer.game !== thisGame) {")


def test_every_game_has_a_board_object_with_what_the_pages_ask_of_it():
    """The house's games' boards, imported by boards.js so pages have them at once, and the
    generic board any other game without a board script of its own is drawn by."""
    listed = (STATIC / "board" / "boards.js").read_text()
    for name in [game.name for game in GAMES] + ["generic"]:
        if name != "generic":
            assert re.search(rf"\b{name}\b", listed), f"boards.js does not import {name}"
        module = STATIC / "board" / f"{name}.js"
        text = module.read_text()
        missing = [
            export
            for export in EXPORTS
            if not re.search(rf"export (function|const) {export}\b", text)
        ]
        assert not missing, f"{module.name} lacks {missing}"
