"""Tests of the pure-Python engine (rules, notation, records, CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

#: Copies of the specification's worked examples (shared/rules/examples), so the suite runs
#: from a checkout anywhere; test_examples.py holds them equal to the originals.
EXAMPLES = Path(__file__).resolve().parent / "examples"
#: The specification itself, beside the checkout when the shared folder is there.
SHARED_EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "examples"


def load_example(name: str) -> dict:
    """One of the specification's worked examples; skips the test when they are absent."""
    path = EXAMPLES / name
    if not path.exists():
        pytest.fail(f"missing worked example {path}")
    return json.loads(path.read_text(encoding="utf-8"))
