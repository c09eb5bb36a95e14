"""Where a bot's move is chosen: in this process, or in a thinking process of its own.

The strong bot thinks for seconds of pure-Python search. In the embedded default the web
process also runs the tasks (``topiary_site.embedded``); searching on one of its threads
would take the interpreter lock from every page and socket for that long, so the runner
offers a small pool of processes and the search runs there. Elsewhere (a Celery worker,
the tests) it runs here, as before.

``bot_choose_in_state`` is what a thinking process runs: it imports the engine only (no
Django), rebuilds the state and thinks from the bot's own view of it, exactly as
``engine.bots.choose_move`` does in-process. The state travels over a local pipe between
processes of one server and never leaves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Set by the embedded runner: runs a function with its arguments in a thinking process.
offload: Callable[..., Any] | None = None


def bot_choose_in_state(
    kind: str, state_json: Any, seat: int, level: str, seed: str, budget: float
) -> str:
    """The move of the bot in ``seat`` of the stored state, from its view alone."""
    from engine.bots import choose_move
    from engine.games import game_module
    from engine.rng import Rng

    state = game_module(kind).state_from_json(state_json)
    return choose_move(state.view(seat), level, rng=Rng(seed), budget=budget)


def bot_choose(
    *, kind: str, state_json: Any, seat: int, level: str, seed: str, budget: float
) -> str:
    """The bot's move, thought out in a thinking process when one is offered."""
    if offload is not None and level != "random":
        return offload(bot_choose_in_state, kind, state_json, seat, level, seed, budget)
    return bot_choose_in_state(kind, state_json, seat, level, seed, budget)
