"""The games by name: each game module's descriptor (``GAME``), for code that handles any game.

    from engine.games import GAMES, game_definition, game_module
    game_definition("topiary").title        # "Topiary"
    game_module("wizards-garden")           # engine.wizards_garden

``GAMES`` are the games the house ships. ``register(definition)`` adds another one at run
time (a test's tiny game, say) and ``unregister(name)`` takes it away again; ``all_games()``
is every game registered now, the house's first. ``EXTRA_GAMES`` (an environment variable:
module names, comma-separated) names game modules every process registers when this module
is imported (each module's ``GAME``), so a web server, its workers and the command line
started with it all know a game the house does not ship.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

from engine import topiary, wizards_garden
from engine.definition import GameDefinition
from engine.errors import NotationError

#: The games the house ships, in the order the site lists them.
GAMES: tuple[GameDefinition, ...] = (topiary.GAME, wizards_garden.GAME)

_REGISTERED: dict[str, GameDefinition] = {}

#: Module names by every name a game goes by, in JSON (``"game"``) and on the command line.
GAME_MODULES: dict[str, str] = {}


def _index(definition: GameDefinition) -> None:
    for name in (definition.name, *definition.aliases):
        _REGISTERED[name] = definition
        GAME_MODULES[name] = definition.module.__name__


for _definition in GAMES:
    _index(_definition)


def all_games() -> tuple[GameDefinition, ...]:
    """Every game registered now, each once, in the order registered."""
    return tuple(dict.fromkeys(_REGISTERED.values()))


def game_names() -> tuple[str, ...]:
    """The name of every game registered now (aliases left out)."""
    return tuple(definition.name for definition in all_games())


def register(definition: GameDefinition) -> GameDefinition:
    """Add a game (its name and aliases must be new); ``unregister(name)`` removes it."""
    taken = [name for name in (definition.name, *definition.aliases) if name in _REGISTERED]
    if taken:
        raise ValueError(f"a game called {taken[0]!r} is already registered")
    _index(definition)
    return definition


def unregister(name: str) -> None:
    """Remove a game added by ``register`` (the house's own games stay)."""
    definition = _REGISTERED.get(name)
    if definition is None:
        return
    if definition in GAMES:
        raise ValueError(f"{name!r} is one of the house's games")
    for alias in (definition.name, *definition.aliases):
        _REGISTERED.pop(alias, None)
        GAME_MODULES.pop(alias, None)


def game_definition(name: str) -> GameDefinition:
    """The game called ``name`` (or one of its aliases); ``NotationError`` if there is none."""
    try:
        return _REGISTERED[name]
    except (KeyError, TypeError):
        expected = " or ".join(repr(known) for known in game_names())
        raise NotationError(code="unknown_game", game=name, expected=expected) from None


def view_game(view: Any) -> GameDefinition | None:
    """The registered game ``view`` is a view of (its module's ``View``), else None.

    How the bots and the analysis find a game's players and analyst from the view alone.
    """
    return next(
        (game for game in all_games() if type(view) is getattr(game.module, "View", None)), None
    )


def game_module(name: str) -> ModuleType:
    """The module implementing ``name`` (``topiary``, ``wizards_garden`` or ``wizards-garden``)."""
    return game_definition(name).module


def view_from_json(name: str, position: Any, seat: int) -> Any:
    """Seat ``seat``'s engine view behind the position JSON it was shown (``View.to_json``).

    For a client that is sent positions, not views (the site's API): a bot rebuilds the view
    it was shown and asks ``engine.bots.choose_move`` for its step. What the viewer may not
    see (``?``) is filled with unseen tiles; the view and its legal steps do not depend on
    the choice.
    """
    module = game_module(name)
    if not isinstance(position, dict):
        raise NotationError(code="position_not_object")
    data = {key: value for key, value in position.items() if key != "seat"}
    if hasattr(module, "state_from_view_json"):
        state = module.state_from_view_json(data)[0]
    else:
        state = module.state_from_json(data)
    return state.view(seat)


#: The environment variable naming extra game modules to register at import.
EXTRA_GAMES = "TOPIARY_EXTRA_GAMES"


def register_extra_games(names: str | None = None) -> tuple[GameDefinition, ...]:
    """Register the ``GAME`` of each module named in ``names`` (comma-separated; by default
    ``$TOPIARY_EXTRA_GAMES``) not registered yet; returns the games added."""
    added = []
    for name in filter(
        None, (part.strip() for part in (names or os.environ.get(EXTRA_GAMES, "")).split(","))
    ):
        definition = importlib.import_module(name).GAME
        if _REGISTERED.get(definition.name) is not definition:
            added.append(register(definition))
    return tuple(added)


register_extra_games()
