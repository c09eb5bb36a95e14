"""Builds ``engine.topiary._compiled`` in place (``make venv`` runs it; needs Cython and gcc).

.venv/bin/python -m engine.topiary.build_compiled
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    extension = Extension(
        "engine.topiary._compiled",
        [str(Path("engine", "topiary", "_compiled.pyx"))],
        extra_compile_args=["-O3"],
    )
    with tempfile.TemporaryDirectory() as scratch:
        setup(
            name="topiary-compiled",
            packages=[],
            ext_modules=cythonize([extension], quiet=True),
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
