"""A player's own events, for every page they have open (``/ws/me/``, docs/PROTOCOL.md
"The player's socket") and their Bot API event stream (``api.streams``, docs/API.md):
a challenge arrived or went, a game of theirs started or ended, a correspondence
opponent moved.

The writer (``games.services``) calls these inside its transaction; each frame is
built then, from public facts only (names, the time control, the game's address:
never a position or a hand), and sent after the commit to the player's group. Every
player who can read them gets them: people and outside bots, not the house bots.
"""

from __future__ import annotations

from django.db import transaction

from games import live, signals
from games.models import Game, Seat
from games.selectors import challenge_json, game_brief


def _send_after_commit(user_ids: list[int], frame: dict) -> None:
    groups = [live.user_group(user_id) for user_id in user_ids]
    if groups:
        transaction.on_commit(lambda: live.send_each(groups, frame))


def _signal_after_commit(signal, **facts) -> None:
    """Send ``signal`` (ids only) once the change is committed; a receiver that fails
    (the broker down while the alerts app queues a task) must not fail the change."""
    transaction.on_commit(lambda: signal.send(sender=Game, **facts), robust=True)


def _reads_events(user) -> bool:
    """People and outside bots (their program reads the event stream); the house bots'
    moves are the site's own."""
    return user is not None and not user.moved_by_site


def _people(seats: list[Seat]) -> list[Seat]:
    """Seats of players who read their events."""
    return [seat for seat in seats if _reads_events(seat.user)]


def challenge_sent(game: Game) -> None:
    """Tell the invited player a challenge arrived."""
    if game.invited_id is None or not _reads_events(game.invited):
        return
    _send_after_commit([game.invited_id], challenge_json(game))
    _signal_after_commit(signals.challenge_sent, game_id=game.pk, user_id=game.invited_id)


def challenge_gone(game: Game, *, by) -> None:
    """Tell both sides a challenge is gone: declined (``by`` the invited player) or
    cancelled (by the challenger)."""
    invited, challenger = game.invited, game.created_by
    if invited is None:
        return
    frame = {
        "type": "challenge_gone",
        "game": game.pk,
        "reason": "declined" if by.pk == invited.pk else "canceled",
        "challenger": challenger.username if challenger else None,
        "opponent": invited.username,
    }
    sides = [user.pk for user in (invited, challenger) if _reads_events(user)]
    _send_after_commit(sides, frame)


def game_started(game: Game, seats: list[Seat]) -> None:
    """Tell every player at the table their game has started (a challenge accepted, a
    table filled, a quick pairing, a tournament round)."""
    people = _people(seats)
    for seat in people:
        opponents = [other.user.username for other in seats if other.index != seat.index]
        frame = {"type": "game_started", "opponents": opponents, **game_brief(game)}
        _send_after_commit([seat.user_id], frame)
    if people:
        user_ids = [seat.user_id for seat in people]
        _signal_after_commit(signals.game_started, game_id=game.pk, user_ids=user_ids)


def game_over(sender, game: Game, **kwargs) -> None:
    """Tell every player at the table their game ended: aborted, or finished and scored
    (a receiver of ``games.signals.game_finished``, sent after the commit)."""
    seats = list(game.seats.select_related("user"))
    users = [seat.user_id for seat in _people(seats)]
    if users:
        live.send_each(
            [live.user_group(user_id) for user_id in users],
            {"type": "game_finished", "status": game.status, **game_brief(game)},
        )


def turn_came(game: Game, mover: Seat) -> None:
    """Tell a correspondence player an opponent has moved and it is their turn (live
    games are watched on their page, which sees the turn in its own frames)."""
    if game.is_live or game.ply == 0 or mover.forfeit or not _people([mover]):
        return
    frame = {"type": "turn", "ply": game.ply, **game_brief(game)}
    if game.deadline is not None:
        frame["deadline"] = int(game.deadline.timestamp() * 1000)
    _send_after_commit([mover.user_id], frame)
    _signal_after_commit(signals.turn_came, game_id=game.pk, ply=game.ply, user_id=mover.user_id)
