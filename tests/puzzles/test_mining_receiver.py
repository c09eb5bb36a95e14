"""Which ends of games the puzzles app queues for mining (issue 44)."""

from __future__ import annotations

import pytest

from games.models import Game
from puzzles import receivers

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "status", "queued"),
    [
        ("topiary", Game.Status.FINISHED, 1),
        ("wizards_garden", Game.Status.FINISHED, 1),
        ("topiary", Game.Status.ABORTED, 0),
    ],
)
def test_only_finished_games_are_queued_for_mining(
    django_capture_on_commit_callbacks, kind, status, queued
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        receivers.game_finished(sender=Game, game=Game(kind=kind, status=status))
    assert len(callbacks) == queued
