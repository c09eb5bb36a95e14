"""What the puzzles app does when other apps report something."""

from django.db import transaction

from engine import mining


def game_finished(sender, game, **kwargs) -> None:
    """A scored game (not an aborted one) of a game with a miner: mine it in a worker."""
    if game.status != "finished" or game.kind not in mining.MINERS:
        return
    from puzzles.tasks import mine_game

    game_id = game.pk
    transaction.on_commit(lambda: mine_game.delay(game_id))
