"""Takebacks: the player who just moved asks to take the move back, the opponent answers."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.services.turns import _players_seat_and_state, _turn_begin
from games.services.writer import Refused, _after_commit_game, _with_game


def _takeback_seats(game: Game, seats: list[Seat], user) -> tuple[Seat, Seat]:
    """(the seat that made the last move, the other seat); Refused if no takeback may happen."""
    seat, _state = _players_seat_and_state(game, seats, user)
    if not game.allows_takebacks:
        if game.definition.casual_takebacks:
            raise Refused(
                "not_allowed",
                _("Takebacks are for casual %(game)s games only.") % {"game": game.title},
            )
        raise Refused("not_allowed", _("%(game)s has no takebacks.") % {"game": game.title})
    if not game.moves:
        raise Refused("not_allowed", _("There is no move to take back."))
    last = seats[game.moves[-1]["seat"]]
    other = next(s for s in seats if s.index != last.index)
    if seat.index not in (last.index, other.index):
        raise Refused("not_seated", _("You are not playing in this game."))
    return last, other


def _takeback_apply(game: Game, seats: list[Seat], now) -> None:
    """Undo the last move: the game returns to the position before it."""
    state = game.engine_initial()
    for entry in game.moves[:-1]:
        state = state.apply(entry["move"])
    game.moves = game.moves[:-1]
    game.ply -= 1
    game.state = state.to_json()
    game.takebacks += 1
    game.takeback_offer = None
    game.takeback_ply = game.ply
    _turn_begin(game, seats, state, now)
    game.save()
    _after_commit_game(game, "takeback")


def takeback_offer(*, game_id: int, user, ply: int) -> Game:
    """Offer to take back your last move before the opponent moves (once per turn).

    A bot opponent accepts at once; a person answers with ``takeback_answer``.
    """

    def offer(game: Game, seats: list[Seat]) -> None:
        last, other = _takeback_seats(game, seats, user)
        if last.user_id != user.pk:
            raise Refused("not_allowed", _("Only the player who just moved may take it back."))
        if ply != game.ply:
            raise Refused(
                "stale",
                _("The game is at ply %(now)s, your offer was for ply %(ply)s.")
                % {"now": game.ply, "ply": ply},
            )
        if game.takeback_ply == game.ply - 1:
            raise Refused("not_allowed", _("One takeback per turn: this move stands."))
        if game.takeback_offer == game.ply:
            raise Refused("not_allowed", _("Your takeback offer is waiting for an answer."))
        if other.user.moved_by_site:
            _takeback_apply(game, seats, timezone.now())
            return
        game.takeback_offer = game.ply
        game.save(update_fields=["takeback_offer"])
        _after_commit_game(game)

    return _with_game(game_id, offer)


def takeback_answer(*, game_id: int, user, accept: bool) -> Game:
    """Accept or decline the opponent's standing takeback offer."""

    def answer(game: Game, seats: list[Seat]) -> None:
        _last, other = _takeback_seats(game, seats, user)
        if other.user_id != user.pk or game.takeback_offer != game.ply:
            raise Refused("not_allowed", _("There is no takeback offer for you to answer."))
        if accept:
            _takeback_apply(game, seats, timezone.now())
            return
        game.takeback_offer = None
        game.save(update_fields=["takeback_offer"])
        _after_commit_game(game)

    return _with_game(game_id, answer)
