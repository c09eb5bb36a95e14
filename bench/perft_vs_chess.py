"""Perft speed: Topiary's move tree against python-chess's, in one run on one machine.

    .venv/bin/python bench/perft_vs_chess.py                   # Topiary depth 3, chess depth 4
    .venv/bin/python bench/perft_vs_chess.py --topiary-depth 2 --chess-depth 3 --repeat 3

Both count the leaves of the full move tree the same way, bulk-counting at depth 1 (the
length of the generated legal-move list, without playing the moves): Topiary from the deal
of seed 1 for 2 players (``engine.topiary.perft``), chess from the start position (the
perft of python-chess's own examples, ``board.legal_moves.count()`` at depth 1). Nodes per
second = leaves / wall time; the best of ``--repeat`` runs is reported, as timeit does, since
the slower runs measure other load on the machine. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import topiary


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess's perft: leaves to ``depth``, bulk-counted at depth 1."""
    if depth > 1:
        count = 0
        for move in board.legal_moves:
            board.push(move)
            count += chess_perft(board, depth - 1)
            board.pop()
        return count
    if depth == 1:
        return board.legal_moves.count()
    return 1


def best_rate(run, repeat: int) -> dict:
    """Leaves and the best nodes per second over ``repeat`` runs of ``run()``."""
    best = None
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = run()
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
    return {"nodes": nodes, "seconds": round(best, 3), "nodes_per_second": round(nodes / best)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topiary-depth", type=int, default=3)
    parser.add_argument("--chess-depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    deal = topiary.new_game(topiary.Options(players=2), seed=1)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "python_chess": chess.__version__,
        "topiary": {
            "position": "new_game(Options(players=2), seed=1)",
            "depth": args.topiary_depth,
            **best_rate(lambda: topiary.perft(deal, args.topiary_depth), args.repeat),
        },
        "chess": {
            "position": "start",
            "depth": args.chess_depth,
            **best_rate(lambda: chess_perft(chess.Board(), args.chess_depth), args.repeat),
        },
    }
    result["ratio"] = round(
        result["topiary"]["nodes_per_second"] / result["chess"]["nodes_per_second"], 1
    )
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
