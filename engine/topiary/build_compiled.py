"""Builds the compiled hot loops in place (``make venv`` runs it; needs Cython and gcc):
``engine.topiary._compiled`` (playouts) and ``engine.wizards_garden._compiled`` (search).

.venv/bin/python -m engine.topiary.build_compiled
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parents[2]
#: The games whose engine package has a ``_compiled.pyx``.
GAMES = ("topiary", "wizards_garden")


def main() -> None:
    extensions = [
        Extension(
            f"engine.{game}._compiled",
            [str(Path("engine", game, "_compiled.pyx"))],
            extra_compile_args=["-O3"],
        )
        for game in GAMES
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

    os.chdir(ROOT)
    main()
