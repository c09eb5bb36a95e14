"""What the tournaments app does when other apps report something."""

from tournaments.selectors import tournament_for_game


def game_finished(sender, game, **kwargs) -> None:
    """A tournament game ended: score it and pair what comes next, in a worker."""
    from tournaments.tasks import tournament_advance

    tournament_id = tournament_for_game(game.pk)
    if tournament_id is not None:
        tournament_advance.delay(tournament_id)
