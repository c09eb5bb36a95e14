"""A signed-in player's own events, for every page they have open (``/ws/me/``,
docs/PROTOCOL.md "The player's socket"): a challenge arrived or went, a game of
theirs started, a correspondence opponent moved.

The writer (``games.services``) calls these inside its transaction; each frame is
built then, from public facts only (names, the time control, the game's address:
never a position or a hand), and sent after the commit to the player's group.
"""

from __future__ import annotations

from django.db import transaction

from games import live
from games.models import Game, Seat
from games.selectors import challenge_json, game_brief


def _send_after_commit(user_ids: list[int], frame: dict) -> None:
    groups = [live.user_group(user_id) for user_id in user_ids]
    if groups:
        transaction.on_commit(lambda: live.send_each(groups, frame))


def _people(seats: list[Seat]) -> list[Seat]:
    """Seats of players who read alerts (not bots, house or outside)."""
    return [seat for seat in seats if seat.user is not None and not seat.user.is_bot]


def challenge_sent(game: Game) -> None:
    """Tell the invited player a challenge arrived."""
    if game.invited_id is None or game.invited.is_bot:
        return
    _send_after_commit([game.invited_id], challenge_json(game))


def challenge_gone(game_id: int, invited_id: int | None) -> None:
    """Tell the invited player a challenge was withdrawn or declined."""
    if invited_id is not None:
        _send_after_commit([invited_id], {"type": "challenge_gone", "game": game_id})


def game_started(game: Game, seats: list[Seat]) -> None:
    """Tell every player at the table their game has started (a challenge accepted, a
    table filled, a quick pairing, a tournament round)."""
    people = _people(seats)
    for seat in people:
        opponents = [other.user.username for other in seats if other.index != seat.index]
        frame = {"type": "game_started", "opponents": opponents, **game_brief(game)}
        _send_after_commit([seat.user_id], frame)


def turn_came(game: Game, mover: Seat) -> None:
    """Tell a correspondence player an opponent has moved and it is their turn (live
    games are watched on their page, which sees the turn in its own frames)."""
    if game.is_live or game.ply == 0 or mover.forfeit or not _people([mover]):
        return
    frame = {"type": "turn", "ply": game.ply, **game_brief(game)}
    if game.deadline is not None:
        frame["deadline"] = int(game.deadline.timestamp() * 1000)
    _send_after_commit([mover.user_id], frame)
