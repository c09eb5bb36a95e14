"""Game records (NOTATION.md, "Game records"), shared by both game modules.

A record is one JSON object, the same shape for both games::

    {"game": "topiary", "options": {...}, "seed": 1, "players": ["ann", "bob"],
     "first_player": 0,
     "initial": <the full initial position (the deal), the game's position JSON>,
     "moves": ["c5:S", {"move": "a1:N a3=*", "took": "N2"}, ...],
     "scores": [...], "winners": [...]}

A move is its notation, or, when it takes a hidden tile (a Topiary take), an object with the
notation and the tile taken. A Topiary turn played in two steps (``c5:S c4`` then ``=R3``)
is recorded as its finished move (``c5:S c4=R3``): records hold one entry per turn.
``scores`` and ``winners`` are the score JSON of the last
position. ``seed`` is the seed the deal came from, or null when the initial position was not
dealt from a seed (a puzzle, an edited position); with a seed, replaying checks that the
initial position is that seed's deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import EngineError, IllegalMove, RecordError

_RECORD_KEYS = {
    "game",
    "options",
    "seed",
    "players",
    "first_player",
    "initial",
    "moves",
    "scores",
    "winners",
}


def make_record(
    module, initial, moves: Iterable[str], *, seed: int | str | None, names: Iterable[str]
) -> dict:
    """The record of ``moves`` (notation) played from ``initial`` by the seats ``names``.

    A take step and the plant step after it may stand for the finished move; the record
    holds the finished move. Raises IllegalMove if a move is not legal where it is played,
    or if the moves end with a take waiting for its plant.
    """
    names = list(names)
    if len(names) != initial.players:
        raise RecordError(code="record_names_count", names=len(names), players=initial.players)
    if seed is not None and (type(seed) is not int and not isinstance(seed, str)):
        raise RecordError(code="record_seed_type_none", seed=seed)
    state = initial
    entries: list[str | dict] = []
    pending: tuple[str, str] | None = None
    for move in moves:
        took = state.took(move)
        state = state.apply(move)
        if state.pending_step is not None:
            pending = (move, took)
            continue
        if pending is not None:
            (take, took), pending = pending, None
            move = module.join_steps(take, move, took)
        entries.append(move if took is None else {"move": move, "took": took})
    if pending is not None:
        raise IllegalMove(code="record_take_unplanted", move=pending[0])
    score = state.score()
    return {
        "game": module.NAME,
        "options": initial.options.to_json(),
        "seed": seed,
        "players": names,
        "first_player": initial.first_player,
        "initial": initial.to_json(),
        "moves": entries,
        "scores": score["scores"],
        "winners": score["winners"],
    }


def replay(
    module, record: Any, check_deal: Callable[[Any, Any], EngineError | None] | None = None
) -> list:
    """Every state of ``record`` from the deal on; RecordError naming the ply if it fails.

    ``check_deal(initial, seed)`` returns why a seeded deal is not the seed's deal (an
    error), or None.
    """
    if not isinstance(record, dict):
        raise RecordError(code="record_not_object")
    unknown = sorted(set(record) - _RECORD_KEYS)
    if unknown:
        raise RecordError(code="record_unknown_field", field=unknown[0])
    missing = sorted(_RECORD_KEYS - set(record))
    if missing:
        raise RecordError(code="record_missing_field", field=missing[0])
    if record["game"] != module.NAME:
        raise RecordError(code="wrong_game", game=record["game"], expected=module.NAME)
    try:
        initial = module.state_from_json(record["initial"])
        options = module.Options.from_json(record["options"])
    except EngineError as error:
        raise RecordError(code="record_initial", inner=error) from None
    if options != initial.options:
        raise RecordError(code="record_options_differ")
    names = record["players"]
    if not (
        isinstance(names, list)
        and len(names) == initial.players
        and all(isinstance(n, str) for n in names)
    ):
        raise RecordError(code="record_players", seats=initial.players)
    if record["first_player"] != initial.first_player:
        raise RecordError(
            code="record_first_player", value=record["first_player"], initial=initial.first_player
        )
    seed = record["seed"]
    if seed is not None:
        if type(seed) is not int and not isinstance(seed, str):
            raise RecordError(code="record_seed_type", seed=seed)
        reason = check_deal(initial, seed) if check_deal else None
        if reason is not None:
            raise RecordError(code="record_initial", inner=reason)
    entries = record["moves"]
    if not isinstance(entries, list):
        raise RecordError(code="record_moves_not_list")
    states = [initial]
    for ply, entry in enumerate(entries, start=1):
        states.append(_replay_move(states[-1], ply, entry))
    final = states[-1].score()
    recorded = {"scores": record["scores"], "winners": record["winners"]}
    if recorded != final:
        raise RecordError(
            ply=len(entries), code="record_scores_differ", recorded=recorded, final=final
        )
    return states


def _replay_move(state, ply: int, entry: Any):
    if isinstance(entry, str):
        entry = {"move": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("move"), str):
        raise RecordError(ply=ply, code="record_entry_malformed", entry=entry)
    unknown = sorted(set(entry) - {"move", "took"})
    if unknown:
        raise RecordError(ply=ply, code="record_entry_unknown_field", field=unknown[0])
    move = entry["move"]
    try:
        took = state.took(move)
        after = state.apply(move)
    except IllegalMove as error:
        raise RecordError.at_ply(error, ply) from None
    if getattr(after, "pending_step", None) is not None:
        raise RecordError(ply=ply, code="record_take_step", move=move)
    if entry.get("took") != took:
        if took is None:
            raise RecordError(ply=ply, code="record_took_nothing", move=move, took=entry["took"])
        raise RecordError(
            ply=ply, code="record_took_differs", move=move, took=took, recorded=entry.get("took")
        )
    return after
