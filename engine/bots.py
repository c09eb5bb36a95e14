"""Bots for every game: ``random``, ``greedy``, ``strong`` and ``master``. They see a view,
never a state.

    from engine import bots, topiary
    from engine.rng import Rng
    view = state.view(state.to_move)
    move = bots.choose_move(view, "strong", rng=Rng(7))

Bots decide as a player at the table does: ``choose_move`` gives one decision per call (a
Topiary turn with a take is two: the take step, then the plant). ``random`` plays any
game, uniformly over ``view.legal_steps()``; the levels above it are each game's own, in
its descriptor (``GameDefinition.bots``: ``engine.topiary.bots``,
``engine.wizards_garden.bots``), found from the view's game (``engine.games.view_game``).

The searching levels stop when ``budget`` seconds have passed since the call (by default
the level's ``SECONDS``), checking the clock every iteration (Wizards' Garden: every 32
nodes); ``iterations`` instead caps the iterations (Wizards' Garden: search nodes) and
ignores the clock, which makes a move reproducible (tests, matches on a loaded machine).
``master`` is the game's own master player when it has one, else its strong search with
master's time. All randomness comes from ``rng``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType

from engine.errors import IllegalMove
from engine.games import all_games, view_game
from engine.rng import Rng

LEVELS = ("random", "greedy", "strong", "master")
#: Seconds per decision of the searching levels when the caller gives no budget: strong
#: thinks a fifth of a second (the compiled playouts buy back what the old strong found in
#: a second), master a second (issue 46; docs/decisions/0021-levels-and-their-ratings.md).
SECONDS = {"strong": 0.2, "master": 1.0}
#: A level a game does not define plays as this one (with its own ``SECONDS``).
STAND_IN = {"master": "strong"}


def level_seconds(level: str) -> float:
    """The seconds a decision of ``level`` takes by default (0 for the levels that do not
    search)."""
    return SECONDS.get(level, 0.0)


def measured_ratings(level: str) -> dict[str, int]:
    """``level``'s measured strength per game that measured it (``GameDefinition
    .bot_ratings``, by game name): what the site shows and starts the bot's rating from."""
    return {game.name: game.bot_ratings[level] for game in all_games() if level in game.bot_ratings}


def choose_move(view, level: str, *, rng: Rng, budget: float | None = None, iterations=None) -> str:
    """The viewer's next decision, a legal step (the viewer must be to move); ``level`` is
    one of ``LEVELS``.

    In Topiary's play phase that is a step as at the table: ``c5:S`` or the take step
    ``c5:S c4``, never a whole take move; on the pending view after a take step, the plant
    ``=R3`` / ``=*``, chosen knowing the taken tile. A draft move and every Wizards' Garden
    move is one decision. ``budget`` is seconds for the searching levels (per call; None:
    the level's ``SECONDS``); ``iterations`` (optional) caps their iterations instead, for
    reproducible play.
    """
    game = view_game(view)
    if game is None:
        raise TypeError(f"bots take a view (state.view(seat)), not {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    if not isinstance(rng, Rng):
        raise TypeError("rng: expected an engine.rng.Rng")
    if view.is_over or view.seat is None or view.seat != view.to_move:
        raise IllegalMove(code="bot_seat_not_to_move", seat=view.seat)
    if level == "random":
        return rng.choice(view.legal_steps())
    if budget is None:
        budget = level_seconds(level)
    player = game.bots.get(level) or game.bots.get(STAND_IN.get(level, ""))
    if player is None:
        raise ValueError(f"no {level} bot plays {game.module.__name__}: only random")
    return player(view, rng, budget, iterations)


@dataclass(frozen=True)
class BotGame:
    """A game played by bots: the deal, the moves (and who made each), the final state, and
    each move's seconds."""

    seed: int | str
    levels: tuple[str, ...]
    initial: object
    moves: tuple[str, ...]
    movers: tuple[int, ...]
    final: object
    seconds: tuple[float, ...]

    def record(self, module: ModuleType) -> dict:
        """The game record (NOTATION.md) with the seats named after their bot levels."""
        names = [f"{level} bot" for level in self.levels]
        return module.make_record(self.initial, self.moves, seed=self.seed, names=names)


def play_game(
    module: ModuleType, levels, *, seed: int | str, budget=None, iterations=None
) -> BotGame:
    """A whole game between bots, seat ``i`` played at ``levels[i]``, dealt from ``seed``.

    Each seat's bot draws from its own generator, ``Rng(f"{seed}/bot/{seat}")``, so a game
    is reproducible from its seed (exactly so with ``iterations`` instead of a time budget).
    ``budget`` and ``iterations`` are one value for every seat or a sequence, one per seat
    (None: the level's own ``SECONDS``).
    A Topiary take is two decisions: ``moves`` (and ``movers``, ``seconds``) hold both
    steps; the record joins them into the finished move.
    """
    levels = tuple(levels)
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    options = module.Options.from_json(module.GAME.table_options(len(levels), {}))
    initial = module.new_game(options, seed)
    rngs = [Rng(f"{seed}/bot/{seat}") for seat in range(len(levels))]
    budgets = _per_seat(budget, len(levels))
    caps = _per_seat(iterations, len(levels))
    state, moves, movers, seconds = initial, [], [], []
    clock = time.perf_counter
    while not state.is_over:
        seat = state.to_move
        start = clock()
        move = choose_move(
            state.view(seat),
            levels[seat],
            rng=rngs[seat],
            budget=budgets[seat],
            iterations=caps[seat],
        )
        seconds.append(clock() - start)
        state = state.apply(move)
        moves.append(move)
        movers.append(seat)
    return BotGame(seed, levels, initial, tuple(moves), tuple(movers), state, tuple(seconds))


def _per_seat(value, seats: int) -> tuple:
    """One value per seat from one value for all or a sequence of them."""
    if isinstance(value, (list, tuple)):
        if len(value) != seats:
            raise ValueError(f"expected {seats} values, one per seat, got {len(value)}")
        return tuple(value)
    return (value,) * seats
