"""Training puzzles mined from finished games, for every game that has a miner.

    from engine import mining
    for puzzle in mining.mine_record(record, seats=[0]):   # a game record (NOTATION.md)
        puzzle.to_json(), puzzle.fingerprint

A game's miner (``engine.topiary.mining``, ``engine.wizards_garden.puzzles``) looks at each
chosen seat's last turns, builds a puzzle position that is a pure function of the record,
proves its optimum and its set of optimal first moves within a node budget, and keeps it only
if the proven best line beats what was played (and the greedy line) by a margin and few first
moves reach the optimum (docs/PUZZLES_SEED.md, "Mined puzzles"). ``self_play(seed, index)``
plays the house bots against each other, reproducibly from the seed, for the same miner.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine import bots
from engine.errors import NotationError
from engine.games import game_definition
from engine.rng import Rng

#: The games with a miner, by game name: the module path of each one's ``mine`` function.
MINERS = {
    "topiary": "engine.topiary.mining",
    "wizards_garden": "engine.wizards_garden.puzzles",
}
#: Bot levels self-play draws its seats from, and the strong bot's iterations there (an
#: iteration cap, not a clock, keeps every game reproducible).
SELF_PLAY_LEVELS = ("random", "greedy", "strong")
SELF_PLAY_ITERATIONS = {"topiary": 40, "wizards_garden": 400}
#: Seats of self-play game ``index``: ``SELF_PLAY_SEATS[kind][index % len(...)]`` (Topiary:
#: two seats, every tenth game four, whose endings with K = 4 are small enough to prove;
#: they cost three quarters of the CPU at one game in three:
#: docs/decisions/0024-four-seats-in-one-self-play-game-in-ten.md).
SELF_PLAY_SEATS = {"topiary": (4, 2, 2, 2, 2, 2, 2, 2, 2, 2), "wizards_garden": (2,)}


@dataclass(frozen=True)
class MinedPuzzle:
    """One proven training puzzle: the position, the solver's seat and depth K, the proof's
    figures, one optimal line and every optimal first move, the themes and the difficulty."""

    kind: str
    position: dict
    seat: int
    k: int
    optimum: int
    greedy: int
    played: int | None
    line: tuple[str, ...]
    optimal_first_moves: tuple[str, ...]
    legal_first_moves: int
    nodes: int
    themes: tuple[str, ...] = ()
    #: The record's ply (0 = the deal) of the position the ending starts from.
    source_ply: int | None = None
    extra: dict = field(default_factory=dict, compare=False)

    @classmethod
    def proven(
        cls,
        kind: str,
        state,
        seat: int,
        k: int,
        solution,
        *,
        played: int | None,
        themes,
        ply: int | None,
    ) -> MinedPuzzle:
        """The puzzle of ``state`` as a game's solver proved it (its ``Solution``: optimum,
        greedy, line, first moves, legal first moves, nodes), from the record's ``ply``
        (None, with ``played`` None: a position made by hand, not taken from a game)."""
        return cls(
            kind=kind,
            position=state.to_json(),
            seat=seat,
            k=k,
            optimum=solution.optimum,
            greedy=solution.greedy,
            played=played,
            line=solution.line,
            optimal_first_moves=solution.first_moves,
            legal_first_moves=solution.legal_first_moves,
            nodes=solution.nodes,
            themes=themes,
            source_ply=ply,
        )

    @property
    def greedy_gap(self) -> int:
        """How far the greedy line falls short of the optimum."""
        return self.optimum - self.greedy

    @property
    def rarity(self) -> float:
        """log2 of legal first moves per optimal first move: how hard the first move is."""
        return math.log2(max(1, self.legal_first_moves) / max(1, len(self.optimal_first_moves)))

    @property
    def difficulty(self) -> dict:
        """The engine's measures, as the daily puzzle's (``greedy_gap``, ``rarity``)."""
        return {"greedy_gap": self.greedy_gap, "rarity": round(self.rarity, 3)}

    @property
    def rating(self) -> int:
        """The starting rating, by the daily puzzle's formula (docs/PUZZLES_SEED.md, 6)."""
        raw = 900 + 150 * (self.k - 1) + 100 * self.greedy_gap + 60 * self.rarity
        return int(min(2600, max(600, round(raw))))

    @property
    def fingerprint(self) -> str:
        """sha256 of (kind, canonical position, seat, K): one puzzle however often mined."""
        return fingerprint(self.kind, self.position, self.seat, self.k)

    def to_json(self) -> dict:
        """The puzzle as JSON (a line of the committed pool; ``python -m engine <game>
        solve`` takes it as is)."""
        return {
            "kind": self.kind,
            "position": self.position,
            "seat": self.seat,
            "k": self.k,
            "optimum": self.optimum,
            "greedy": self.greedy,
            "played": self.played,
            "line": list(self.line),
            "optimal_first_moves": list(self.optimal_first_moves),
            "legal_first_moves": self.legal_first_moves,
            "nodes": self.nodes,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "rating": self.rating,
            "source_ply": self.source_ply,
            "fingerprint": self.fingerprint,
        }

    @classmethod
    def from_json(cls, data: dict) -> MinedPuzzle:
        """The puzzle of ``to_json``."""
        return cls(
            kind=data["kind"],
            position=data["position"],
            seat=data["seat"],
            k=data["k"],
            optimum=data["optimum"],
            greedy=data["greedy"],
            played=data.get("played"),
            line=tuple(data["line"]),
            optimal_first_moves=tuple(data["optimal_first_moves"]),
            legal_first_moves=data["legal_first_moves"],
            nodes=data["nodes"],
            themes=tuple(data.get("themes", ())),
            source_ply=data.get("source_ply"),
        )


def fingerprint(kind: str, position: dict, seat: int, k: int) -> str:
    """sha256 hex of the canonical JSON of ``[kind, position, seat, k]``."""
    text = json.dumps([kind, position, seat, k], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _miner(kind: str):
    import importlib

    name = game_definition(kind).name
    if name not in MINERS:
        raise NotationError(code="unknown_game", game=kind, expected=" or ".join(MINERS))
    return importlib.import_module(MINERS[name])


def mine_record(
    record: dict,
    seats: Iterable[int] | None = None,
    *,
    max_nodes: int | None = None,
    depths: Iterable[int] | None = None,
) -> Iterator[MinedPuzzle]:
    """The puzzles of a finished game's record for ``seats`` (every seat when None), at
    ``depths`` (default: the game's miner's own)."""
    miner = _miner(record.get("game") if isinstance(record, dict) else None)
    kwargs = {} if max_nodes is None else {"max_nodes": max_nodes}
    yield from miner.mine(record, seats, depths=depths, **kwargs)


def self_play_levels(
    kind: str, seed: str, index: int, seats: tuple[int, ...] | None = None
) -> tuple[str, ...]:
    """The bot level of each seat of self-play game ``index``, from the seed; ``seats`` is
    the cycle of table sizes (default ``SELF_PLAY_SEATS[kind]``): game ``index`` has
    ``seats[index % len(seats)]`` seats."""
    seats = seats or SELF_PLAY_SEATS.get(kind, (2,))
    rng = Rng(f"{seed}/mine/{kind}/{index}/levels")
    return tuple(rng.choice(SELF_PLAY_LEVELS) for _ in range(seats[index % len(seats)]))


def self_play(kind: str, seed: str, index: int, seats: tuple[int, ...] | None = None) -> dict:
    """The record of self-play game ``index`` of ``seed`` (``seats``: the cycle of table
    sizes, see ``self_play_levels``): house bots, reproducibly."""
    name = game_definition(kind).name
    module = _miner(name).GAME.module
    levels = self_play_levels(name, seed, index, seats)
    played = bots.play_game(
        module,
        levels,
        seed=f"{seed}/mine/{name}/{index}",
        iterations=SELF_PLAY_ITERATIONS.get(name, 40),
    )
    return played.record(module)


def mine_self_play(
    kind: str,
    seed: str,
    index: int,
    *,
    max_nodes: int | None = None,
    seats: tuple[int, ...] | None = None,
    depths: tuple[int, ...] | None = None,
) -> list[MinedPuzzle]:
    """The puzzles of self-play game ``index`` of ``seed``, every seat mined (at ``depths``,
    default the miner's own)."""
    record = self_play(kind, seed, index, seats)
    return list(mine_record(record, None, max_nodes=max_nodes, depths=depths))
