"""Players, games and a tournament for the chat tests."""

from __future__ import annotations

import pytest

from tests.games.conftest import live_game, make_player  # noqa: F401  (fixture)
from tests.tournaments.conftest import make_tournament


@pytest.fixture
def table(make_player):
    """(ann, bob, carol, game): ann and bob play a running game, carol watches it."""
    ann, bob, carol = make_player(), make_player(), make_player()
    return ann, bob, carol, live_game([ann, bob], first_player=0)


@pytest.fixture
def tournament(make_player):
    return make_tournament(make_player())
