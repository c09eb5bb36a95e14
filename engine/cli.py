"""``python -m engine <game> <command> [ARG...] [FILE]``: the engine on the command line.

``<game>`` is a registered game's name or alias (``topiary``, ``wizards-garden``). A command
reads its JSON input from FILE, or from stdin when FILE is ``-`` or absent, and prints JSON
on stdout. Bad input (unreadable file, malformed JSON, an illegal move, a record that does
not replay ...) exits with status 2 and one line on stderr naming the problem.

Commands live in ``COMMANDS``: to add one, write ``def _name(module, args, read) -> object``
and add a ``Command`` entry. ``args`` are the command's own arguments (strings, already
counted); ``read()`` parses the input JSON, called only by commands that need it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import bots, puzzles
from engine.errors import EngineError, NotationError
from engine.games import GAME_MODULES, all_games, game_module


def _game_names() -> list[str]:
    """Each game as the command line names it: its last alias (``wizards-garden``), else its
    name."""
    return [(game.aliases or (game.name,))[-1] for game in all_games()]


def _usage() -> str:
    return f"usage: python -m engine <{'|'.join(_game_names())}> <command> [ARG...] [FILE]"


class UsageError(Exception):
    """The command line itself is wrong."""


@dataclass(frozen=True)
class Command:
    """One CLI command: what it does, its own arguments, and whether FILE/stdin is read."""

    run: Callable[[ModuleType, list[str], Callable[[], Any]], Any]
    help: str
    args: tuple[str, ...] = ()
    reads_input: bool = True
    optional_input: bool = False
    #: The command parses all its arguments itself (flags); no input is read.
    own_args: bool = False


def _position(module: ModuleType, data: Any):
    """A full position; also accepts an examples/ file's ``{"position": ...}`` wrapper."""
    if isinstance(data, dict) and "position" in data and "game" not in data:
        data = data["position"]
    return module.state_from_json(data)


def _viewed_position(module: ModuleType, data: Any, every_hand: bool):
    """A position that may be one player's view (``?``); refuses if a needed hand is unknown.

    ``every_hand``: scoring counts every hand; otherwise only the mover's is needed.
    """
    if isinstance(data, dict) and "position" in data and "game" not in data:
        data = data["position"]
    if not hasattr(module, "state_from_view_json"):
        return module.state_from_json(data)
    state, unknown_hands = module.state_from_view_json(data)
    needed = range(state.players) if every_hand else [state.to_move]
    missing = sorted(set(needed) & unknown_hands)
    if missing:
        if every_hand:
            raise NotationError(code="cli_every_hand_unknown", seat=missing[0])
        raise NotationError(code="cli_mover_hand_unknown", seat=missing[0])
    return state


def _score(module, args, read):
    return _viewed_position(module, read(), every_hand=True).score()


def _moves(module, args, read):
    state = _viewed_position(module, read(), every_hand=False)
    return state.legal_moves() if not state.is_over else []


def _apply(module, args, read):
    return _position(module, read()).apply(args[0]).to_json()


def _replay(module, args, read):
    states = module.replay(read())
    final = states[-1]
    return {"position": final.to_json(), **final.score()}


def _perft(module, args, read):
    if not hasattr(module, "perft"):
        raise UsageError(f"perft is not available for {module.NAME}")
    try:
        depth = int(args[0])
    except ValueError:
        raise UsageError(f"perft DEPTH: {args[0]!r} is not a whole number") from None
    if depth < 0:
        raise UsageError(f"perft DEPTH: {depth} is negative")
    data = read()
    state = module.new_game(module.Options(players=2), seed=1) if data is None else None
    if state is None:
        state = _position(module, data)
    start = time.perf_counter()
    nodes = module.perft(state, depth)
    seconds = time.perf_counter() - start
    return {
        "depth": depth,
        "nodes": nodes,
        "seconds": round(seconds, 3),
        "nodes_per_second": round(nodes / seconds) if seconds else None,
    }


def _puzzle_game_only(module: ModuleType, command: str) -> None:
    game = puzzles.GAME
    if module is not game.module:
        raise UsageError(
            f"{command} is only for {game.name} (the daily puzzle is a {game.title} puzzle)"
        )


def _solve(module, args, read):
    from engine import wizards_garden
    from engine.wizards_garden import puzzles as garden_puzzles

    if module is wizards_garden:
        # A garden puzzle's depth is not in its position: {"position": ..., "k": K}, as a
        # mined puzzle's JSON has it.
        data = read()
        if not isinstance(data, dict) or "position" not in data or "k" not in data:
            raise UsageError('solve for wizards-garden reads {"position": ..., "k": K}')
        return garden_puzzles.solve(_position(module, data), data["k"]).to_json()
    _puzzle_game_only(module, "solve")
    return puzzles.solve(_position(module, read())).to_json()


def _daily(module, args, read):
    _puzzle_game_only(module, "daily")
    return puzzles.daily(args[0]).to_json()


def _play(module, args, read):
    flags = {"--bots": None, "--seed": "1", "--budget": "1.0"}
    pairs = list(args)
    while pairs:
        flag = pairs.pop(0)
        if flag not in flags or not pairs:
            raise UsageError("play takes --bots LEVEL,LEVEL[,...] [--seed N] [--budget SECONDS]")
        flags[flag] = pairs.pop(0)
    if flags["--bots"] is None:
        raise UsageError("play needs --bots, e.g. --bots strong,greedy")
    seed = flags["--seed"]
    try:
        budget = float(flags["--budget"])
    except ValueError:
        raise UsageError(f"--budget: {flags['--budget']!r} is not a number of seconds") from None
    if not budget > 0:
        raise UsageError(f"--budget: {budget} is not a positive number of seconds")
    try:
        played = bots.play_game(
            module,
            flags["--bots"].split(","),
            seed=int(seed) if seed.lstrip("-").isdigit() else seed,
            budget=budget,
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    return played.record(module)


COMMANDS: dict[str, Command] = {
    "score": Command(_score, "the score JSON of a position"),
    "moves": Command(_moves, "the legal moves of the player to move, as a JSON list"),
    "apply": Command(
        _apply,
        "the position after MOVE or a step ('c5:S c4', then '=R3'); a full state in and out",
        ("MOVE",),
    ),
    "replay": Command(_replay, "check a game record; print its final position and scores"),
    "perft": Command(
        _perft,
        "leaf count of the move tree to DEPTH (default position: the seed-1 deal, 2 players)",
        ("DEPTH",),
        optional_input=True,
    ),
    "solve": Command(
        _solve,
        "the exact optimum of a puzzle position (Topiary: PUZZLES.md; Wizards' Garden: "
        '{"position": ..., "k": K}, docs/PUZZLES_SEED.md)',
    ),
    "daily": Command(
        _daily, "the daily puzzle of an ISO DATE with its optimum", ("DATE",), reads_input=False
    ),
    "play": Command(
        _play,
        "a game between bots: --bots strong,greedy [--seed N] [--budget SECONDS]; its record",
        reads_input=False,
        own_args=True,
    ),
}


def _read_json(source: str | None, optional: bool) -> Any:
    if source is None and optional:
        return None
    try:
        if source is None or source == "-":
            text = sys.stdin.read()
        else:
            text = Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise NotationError(code="cli_not_utf8", source=source or "stdin") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = source if source not in (None, "-") else "stdin"
        raise NotationError(
            code="cli_invalid_json",
            source=where,
            line=error.lineno,
            column=error.colno,
            detail=error.msg,
        ) from None


def _help() -> str:
    lines = [_usage(), "", "commands:"]
    for name, command in COMMANDS.items():
        lines.append(f"  {' '.join((name, *command.args)):<16} {command.help}")
    return "\n".join(lines)


def run(argv: list[str]) -> Any:
    """The JSON result of one command line (without the program name)."""
    if len(argv) < 2:
        raise UsageError(f"expected a game and a command; {_usage()}")
    game, name, rest = argv[0], argv[1], argv[2:]
    if game not in GAME_MODULES:
        raise UsageError(f"unknown game {game!r}: expected {' or '.join(_game_names())}")
    command = COMMANDS.get(name)
    if command is None:
        raise UsageError(f"unknown command {name!r}: expected one of {', '.join(COMMANDS)}")
    if command.own_args:
        return command.run(game_module(game), rest, lambda: None)
    wanted = len(command.args)
    if len(rest) < wanted:
        raise UsageError(f"{name} needs {' '.join(command.args)}")
    if len(rest) > wanted + (1 if command.reads_input else 0):
        raise UsageError(f"{name}: unexpected argument {rest[-1]!r}")
    args, source = rest[:wanted], (rest[wanted] if len(rest) > wanted else None)
    module = game_module(game)
    return command.run(module, args, lambda: _read_json(source, command.optional_input))


def main(argv: list[str] | None = None) -> int:
    """Run a command line, print its JSON; exit status 2 with one line on stderr if bad."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help", "help"):
        print(_help())
        return 0
    try:
        result = run(argv)
    except (UsageError, EngineError) as error:
        message = " ".join(str(error).split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (``| head``) stopped early; that is not an error of ours.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    return 0
