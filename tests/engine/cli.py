"""Running ``python -m engine ...`` in a subprocess, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def ok(result: subprocess.CompletedProcess):
    """The JSON a successful command printed."""
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def refused(result: subprocess.CompletedProcess) -> str:
    """The one stderr line of a refused command line (exit status 2, nothing on stdout)."""
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]
