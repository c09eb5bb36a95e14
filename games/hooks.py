"""What apps above games tell it through a registered function (the import rules forbid
games importing them): today the players' ratings shown beside seeks and open tables."""

from __future__ import annotations

from collections.abc import Callable

#: ``source(user_ids=..., kind=...) -> {user_id: (value, shown)}``, registered by the ratings app.
_rating_source: Callable[..., dict[int, tuple[float, str]]] | None = None

#: The rating of a player nobody has rated (the ratings app's start rating).
UNRATED = (1500.0, "1500?")


def rating_source(function: Callable[..., dict[int, tuple[float, str]]]):
    """Register where ratings come from (``ratings.apps``); returns ``function``."""
    global _rating_source
    _rating_source = function
    return function


def ratings_for(*, user_ids, kind: str) -> dict[int, tuple[float, str]]:
    """Each user's rating of ``kind`` as (value, what people read, "1500?"); a start
    rating for everyone when no ratings app is installed."""
    ids = list(dict.fromkeys(user_ids))
    if _rating_source is None:
        return dict.fromkeys(ids, UNRATED)
    return _rating_source(user_ids=ids, kind=kind)


def ratings_shown(pairs) -> dict[tuple[str, int], str]:
    """What people read of each ``(kind, user id)``'s rating ("1500?"): one look-up per kind."""
    ids_of: dict[str, list[int]] = {}
    for kind, user_id in pairs:
        ids_of.setdefault(kind, []).append(user_id)
    return {
        (kind, user_id): shown
        for kind, ids in ids_of.items()
        for user_id, (_, shown) in ratings_for(user_ids=ids, kind=kind).items()
    }
