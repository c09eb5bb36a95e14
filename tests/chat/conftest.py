"""Players, games and a tournament for the chat tests."""

from __future__ import annotations

import pytest

from tests.games.conftest import live_game, make_player  # noqa: F401  (a fixture)
from tests.tournaments.conftest import make_tournament


@pytest.fixture
def table(make_player):  # noqa: F811
    """(ann, bob, carol, game): ann and bob play a running game, carol watches it."""
    ann, bob, carol = make_player(), make_player(), make_player()
    return ann, bob, carol, live_game([ann, bob], first_player=0)


@pytest.fixture
def tournament(make_player):  # noqa: F811
    return make_tournament(make_player())
