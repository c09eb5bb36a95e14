"""Games for tests, created and played through the games app's own services.

A seeded random player picks each move from the legal moves; the game is
scored by ``games.services.game_score`` as the scoring task does (which
stores the record, seat scores and ranks, and applies the ratings).
"""

from __future__ import annotations

from accounts.models import User
from engine.rng import Rng
from games import services
from games.models import Game
from tests.support.players import create_player
from tests.support.tables import CORRESPONDENCE


def make_user(username: str, *, bot_level: str = "") -> User:
    """A player (a bot when ``bot_level`` is given)."""
    return create_player(username, is_bot=bool(bot_level), bot_level=bot_level)


def play_game(
    users: list[User],
    *,
    kind: str = "topiary",
    rated: bool = True,
    options: dict | None = None,
    plies: int | None = None,
    move_seed: int = 0,
    score: bool = True,
) -> Game:
    """A game between ``users`` (seat order) played by random legal moves to its end.

    ``plies`` stops it early, leaving a game in progress with its hidden
    state. ``score=False`` leaves a finished game unscored (no ranks yet).
    """
    game = services.game_create(
        kind=kind,
        players=users,
        options=options or {},
        rated=rated,
        **CORRESPONDENCE,
    )
    rng = Rng(move_seed)
    while game.status == Game.Status.ACTIVE and (plies is None or game.ply < plies):
        state = game.engine_state()
        game = services.move_play(
            game_id=game.pk,
            user=users[state.to_move],
            ply=game.ply,
            move=rng.choice(state.legal_moves()),
        )
    if score and game.status == Game.Status.FINISHED:
        services.game_score(game_id=game.pk)
    game.refresh_from_db()
    return game


def rank_seats(game: Game, ranks: list[int]) -> None:
    """Give the seats these final ranks (1 is first), as scoring a game would."""
    for seat, rank in zip(game.seats.order_by("index"), ranks, strict=True):
        seat.rank = rank
        seat.save(update_fields=["rank"])
