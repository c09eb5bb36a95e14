"""Where engine search runs: in this process, or in a thinking process of its own.

The strong bot thinks for seconds of pure-Python search. In the embedded default the web
process also runs the tasks (``topiary_site.embedded``); searching on one of its threads
would take the interpreter lock from every page and socket for that long, so the runner
offers a small pool of processes and the search runs there. Elsewhere (a Celery worker,
the tests) it runs here, as before. Puzzle mining, search too, goes the same way
(``elsewhere``).

Only the bot's own engine view crosses to a thinking process (views pickle; states are
never sent), so a thinking process cannot know more than the seat it plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Set when the embedded runner starts: runs a function with its arguments in a thinking
#: process.
offload: Callable[..., Any] | None = None


def runner_started(*, runner: Any, **_) -> None:
    """The embedded runner offers its thinking processes (``kit.signals``): bots think there."""
    global offload
    offload = runner.think


def elsewhere(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a thinking process when the embedded runner offers them, here
    otherwise. ``function`` and its arguments cross by pickle: a module-level function
    that needs no Django, and engine values."""
    if offload is not None:
        return offload(function, *args)
    return function(*args)


def as_list(function: Callable[..., Any], *args: Any) -> list:
    """``list(function(*args))``: a generator's items, which can cross back by pickle."""
    return list(function(*args))


def bot_choose_in_view(view: Any, level: str, seed: str, budget: float | None) -> str:
    """The move a bot at ``level`` chooses from ``view`` (what a thinking process runs);
    ``budget`` None: the level's own seconds."""
    from engine.bots import choose_move
    from engine.rng import Rng

    return choose_move(view, level, rng=Rng(seed), budget=budget)


def bot_choose(*, view: Any, level: str, seed: str, budget: float | None) -> str:
    """The bot's move from its own view, thought out in a thinking process when offered."""
    if level == "random":
        return bot_choose_in_view(view, level, seed, budget)
    return elsewhere(bot_choose_in_view, view, level, seed, budget)
