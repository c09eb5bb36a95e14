"""Bots of an older engine checkout, to measure the current bots against them (bench only).

Issue 11 made a Topiary take two decisions (take, look, then plant). To measure what that
changed, ``bench/match.py --old-engine DIR`` seats ``old-random``, ``old-greedy`` and
``old-strong``: the bots of the engine in ``DIR`` (a ``git worktree`` of an older commit,
e.g. ``git worktree add --detach /tmp/old-engine edae102``), which decide a whole move at
once. The old package is imported under its own module objects (both are called
``engine``), and it plays from its own view of the position: the current state is
converted through NOTATION.md's JSON, which is the same for a position without a pending
take, and the old bot's whole move is applied to the current state.
"""

from __future__ import annotations

import importlib
import sys
import time
from dataclasses import dataclass
from types import ModuleType

from engine import bots
from engine.rng import Rng

OLD_PREFIX = "old-"


@dataclass(frozen=True)
class OldEngine:
    """The older checkout's ``bots``, ``topiary`` and ``rng`` modules."""

    bots: ModuleType
    topiary: ModuleType
    rng: ModuleType


_LOADED: dict[str, OldEngine] = {}


def load(path: str) -> OldEngine:
    """Import the ``engine`` package found in ``path`` beside the current one (cached)."""
    if path in _LOADED:
        return _LOADED[path]
    current = {k: v for k, v in sys.modules.items() if k == "engine" or k.startswith("engine.")}
    for name in current:
        del sys.modules[name]
    sys.path.insert(0, path)
    try:
        old = OldEngine(
            importlib.import_module("engine.bots"),
            importlib.import_module("engine.topiary"),
            importlib.import_module("engine.rng"),
        )
        if not old.bots.__file__.startswith(path):
            raise ImportError(f"{path} holds no engine package")
    finally:
        sys.path.remove(path)
        for name in [k for k in sys.modules if k == "engine" or k.startswith("engine.")]:
            del sys.modules[name]
        sys.modules.update(current)
    _LOADED[path] = old
    return old


@dataclass(frozen=True)
class MixedGame:
    """What ``bots.play_game`` gives, for a lineup mixing current and old bots."""

    moves: tuple[str, ...]
    movers: tuple[int, ...]
    final: object
    seconds: tuple[float, ...]


def play_game(module, levels, *, seed, budget: float, iterations, old_path: str) -> MixedGame:
    """A Topiary game like ``bots.play_game``, seats at ``old-LEVEL`` played by the old bots.

    Every seat draws from ``Rng(f"{seed}/bot/{seat}")`` of its own engine, so a seat at the
    same level plays the same game whichever engine the other seats use.
    """
    old = load(old_path)
    state = module.new_game(module.Options(players=len(levels)), seed)
    rngs = [
        (old.rng.Rng if level.startswith(OLD_PREFIX) else Rng)(f"{seed}/bot/{seat}")
        for seat, level in enumerate(levels)
    ]
    moves, movers, seconds = [], [], []
    clock = time.perf_counter
    while not state.is_over:
        seat = state.to_move
        level = levels[seat]
        start = clock()
        if level.startswith(OLD_PREFIX):
            old_view = old.topiary.state_from_json(state.to_json()).view(seat)
            move = old.bots.choose_move(
                old_view,
                level[len(OLD_PREFIX) :],
                rng=rngs[seat],
                budget=budget,
                iterations=iterations,
            )
        else:
            move = bots.choose_move(
                state.view(seat), level, rng=rngs[seat], budget=budget, iterations=iterations
            )
        seconds.append(clock() - start)
        state = state.apply(move)
        moves.append(move)
        movers.append(seat)
    return MixedGame(tuple(moves), tuple(movers), state, tuple(seconds))
