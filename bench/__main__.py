"""``python -m bench [NAME ...]`` (``make bench``): the engine benchmarks of docs/BENCHMARKS.md.

Without a name it runs the speed benchmarks (a few minutes); ``strength`` runs the bot
ladder of issue #3 (about half an hour on 2 cores). Each benchmark runs in its own process
and prints one JSON object. Never part of the test suite: timings depend on the machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

SPEED = {
    "perft": ["perft_vs_chess.py"],
    "playouts": ["playouts.py", "--games", "50000"],
    "solver": ["solver.py", "--positions", "50", "--k", "2", "3"],
    "solver4": ["solver.py", "--positions", "10", "--k", "4"],
    "daily": ["daily.py", "--days", "14"],
    "bots": ["bot_speed.py", "--positions", "60", "--iterations", "1000"],
    "analysis": ["analysis.py", "--games", "3"],
    "garden-search": ["garden_search.py", "--rounds", "3", "--positions", "40"],
}
STRENGTH = {
    "topiary-greedy-random": ["topiary", "--bots", "greedy,random", "--games", "200"],
    "wizards-garden-greedy-random": [
        "wizards-garden",
        "--bots",
        "greedy,random",
        "--games",
        "200",
    ],
    "topiary-strong-greedy": ["topiary", "--bots", "strong,greedy", "--games", "100"],
    "topiary-4-players": ["topiary", "--bots", "strong,greedy,greedy,random", "--games", "48"],
    "wizards-garden-strong-greedy": ["wizards-garden", "--bots", "strong,greedy", "--games", "40"],
}


def run(script: list[str]) -> int:
    """Run one benchmark script with this interpreter; its exit status."""
    print(f"== {' '.join(script)}", flush=True)
    return subprocess.call([sys.executable, str(HERE / script[0]), *script[1:]])


def main(names: list[str]) -> int:
    """Run the named benchmarks (default: every speed benchmark)."""
    scripts = []
    for name in names or list(SPEED):
        if name in SPEED:
            scripts.append(SPEED[name])
        elif name == "strength":
            scripts += [
                ["match.py", *args, "--budget", "1", "--jobs", "2"] for args in STRENGTH.values()
            ]
        else:
            print(f"unknown benchmark {name!r}: {', '.join([*SPEED, 'strength'])}")
            return 2
    return max(run(script) for script in scripts)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
