"""What the apps add to ``/status.json``, each from its ``AppConfig.ready``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_entries: dict[str, Callable[[], Any]] = {}


def entry_add(name: str, read: Callable[[], Any]) -> None:
    """Answer ``read()`` under ``name`` in ``/status.json``; two apps may not use one name.
    What it answers is public: whether something is ready, never a secret it holds."""
    if name in _entries and _entries[name] is not read:
        raise ValueError(f"/status.json entry {name!r} is added twice")
    _entries[name] = read


def entries() -> dict[str, Any]:
    """Every app's entry, read now, in the order they were added."""
    return {name: read() for name, read in _entries.items()}
