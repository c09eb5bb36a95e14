"""The game modules by name, for code that handles either game alike."""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import NotationError

#: Module names by the game's name in JSON (``"game"`` field) and on the command line.
GAME_MODULES = {
    "topiary": "engine.topiary",
    "wizards_garden": "engine.wizards_garden",
    "wizards-garden": "engine.wizards_garden",
}


def game_module(name: str) -> ModuleType:
    """The module implementing ``name`` (``topiary``, ``wizards_garden`` or ``wizards-garden``)."""
    try:
        return importlib.import_module(GAME_MODULES[name])
    except KeyError:
        raise NotationError(
            f"unknown game {name!r}: expected 'topiary' or 'wizards_garden'"
        ) from None
