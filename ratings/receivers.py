"""What the ratings app does when games tell of an event (games never import ratings)."""

from ratings.services import ratings_apply_game


def game_scored(sender, game, **kwargs) -> dict:
    """A finished game was scored: move its players' ratings in the same transaction.

    Answers the rating changes for the game's result (``{"ratings": [...]}``, one entry
    per seat), which the game's page shows: public, as on every profile.
    """
    changes = {change.user_id: change for change in ratings_apply_game(game=game)}
    if not changes:
        return {}
    return {
        "ratings": [
            _change_json(seat.index, changes.get(seat.user_id))
            for seat in game.seats.order_by("index")
        ]
    }


def _change_json(seat: int, change) -> dict:
    if change is None:
        return {"seat": seat, "before": None, "after": None, "change": None}
    return {
        "seat": seat,
        "before": round(change.before),
        "after": round(change.after),
        "change": round(change.after - change.before),
    }
