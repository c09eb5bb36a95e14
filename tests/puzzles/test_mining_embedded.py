"""Puzzle mining in the embedded default (``make run``: no Celery worker)."""

from __future__ import annotations

import pytest

from games import thinking
from puzzles import services
from puzzles.models import TrainingPuzzle
from tests.ratings.played import play_game
from tests.support.players import create_player
from topiary_site import embedded

# Not transactional: the finished game's on-commit mining task is never queued, so only
# this test mines it.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_embedded_default_mines_in_a_thinking_process_not_on_the_web_threads():
    # make run has no worker: a search on a task thread would hold the interpreter lock
    # against every page and socket of the web process, as a bot's would.
    game = play_game([create_player("carol"), create_player("dave")], move_seed=44)
    runner = embedded.Runner(threads=1, thinkers=1)
    crossed = []

    def offload(function, *args):
        crossed.append(args[0] if function is thinking.as_list else function)
        return runner.think(function, *args)

    thinking.offload = offload
    try:
        stored = services.game_puzzles_mine(game_id=game.pk)
        services.self_play_mine(kind="wizards_garden", seed="embedded", start=0, games=1)
    finally:
        thinking.offload = None
        runner.stop()
    assert crossed[0].__name__ == "mine_record" and crossed[1].func.__name__ == "mine_self_play"
    # The same puzzles as mining in this process: nothing lost on the way back.
    assert stored == TrainingPuzzle.objects.filter(source_game=game).count() > 0
    TrainingPuzzle.objects.filter(source_game=game).delete()
    assert services.game_puzzles_mine(game_id=game.pk) == stored
