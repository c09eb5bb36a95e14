"""The suite's copies of the specification's worked examples are the specification's."""

from __future__ import annotations

from tests.conftest import need
from tests.engine import EXAMPLES, SHARED_EXAMPLES


def test_the_copies_match_the_specification():
    need(
        SHARED_EXAMPLES.is_dir(),
        f"needs the shared specification beside the checkout at {SHARED_EXAMPLES}",
    )
    originals = sorted(p.name for p in SHARED_EXAMPLES.glob("*.json"))
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == originals
    for name in originals:
        assert (EXAMPLES / name).read_bytes() == (SHARED_EXAMPLES / name).read_bytes(), name
