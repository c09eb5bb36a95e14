"""Celery tasks of the daily puzzle: thin wrappers around its services."""

from celery import shared_task

from puzzles import services


@shared_task(name="puzzles.prepare_tomorrow")
def prepare_tomorrow() -> str:
    """Make tomorrow's daily puzzle ahead of time; running it again changes nothing."""
    return services.daily_puzzle_prepare_tomorrow().date.isoformat()


@shared_task(name="puzzles.mine_game")
def mine_game(game_id: int) -> int:
    """Mine a finished game's endings into training puzzles; running it again adds none."""
    return services.game_puzzles_mine(game_id=game_id)


@shared_task(name="puzzles.top_up_pool")
def top_up_pool(kind: str = "topiary", games: int = 1) -> int:
    """Mine a little more self-play into the training pool (beat, at low priority)."""
    return services.training_pool_top_up(kind=kind, games=games)
