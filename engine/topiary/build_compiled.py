"""Builds the compiled hot loops in place (``make venv`` runs it; needs Cython and gcc):
``engine.topiary._compiled`` (playouts) and ``engine.wizards_garden._compiled`` (search).

.venv/bin/python -m engine.topiary.build_compiled [topiary] [wizards_garden]

With no game named, every game's; ``make venv`` builds each module on its own rule.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parents[2]
#: The games whose engine package has a ``_compiled.pyx``.
GAMES = ("topiary", "wizards_garden")


def main(games: tuple[str, ...] = GAMES) -> None:
    unknown = sorted(set(games) - set(GAMES))
    if unknown:
        raise SystemExit(f"no compiled module for {', '.join(unknown)}: one of {GAMES}")
    extensions = [
        Extension(
            f"engine.{game}._compiled",
            [str(Path("engine", game, "_compiled.pyx"))],
            extra_compile_args=["-O3", "-ffp-contract=off"],
        )
        for game in games
    ]
    with tempfile.TemporaryDirectory() as scratch:
        setup(
            name="topiary-compiled",
            packages=[],
            ext_modules=cythonize(extensions, quiet=True),
            script_args=[
                "build_ext",
                "--inplace",
                "--quiet",
                "--build-temp",
                scratch,
                "--build-lib",
                scratch,
            ],
        )


if __name__ == "__main__":
    import os
    import sys

    os.chdir(ROOT)
    main(tuple(sys.argv[1:]) or GAMES)
