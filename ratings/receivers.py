"""What the ratings app does when games tell of an event (games never import ratings)."""

from ratings.services import ratings_apply_game


def game_scored(sender, game, **kwargs) -> None:
    """A finished game was scored: move its players' ratings in the same transaction."""
    ratings_apply_game(game=game)
