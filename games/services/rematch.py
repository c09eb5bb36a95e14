"""Rematches: every player of a finished game says yes and the same table plays again."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.selectors import blocks_between
from games.models import Game, Seat
from games.services.tables import game_create
from games.services.writer import Refused, _after_commit_game, _with_game


def _rematch_seat(game: Game, seats: list[Seat], user) -> Seat:
    """``user``'s seat at a finished game that may still be rematched; Refused says why not."""
    seat = next((seat for seat in seats if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise Refused("not_seated", _("You did not play in this game."))
    if game.status != Game.Status.FINISHED:
        raise Refused("not_finished", _("A rematch is offered once the game is over."))
    if game.in_event:
        raise Refused("not_allowed", _("Tournament games have no rematch."))
    if game.rematch_id is not None:
        raise Refused("rematch_started", _("The rematch has already started."))
    return seat


def _rematch_start(game: Game, seats: list[Seat]) -> None:
    """Every player accepted: the same players and settings, each one seat on.

    The player of seat 1 sits in seat 0, and so on round the table; the seat that moved
    first moves first again, so the turn order starts with the next player.
    """
    players = [seats[(index + 1) % len(seats)].user for index in range(len(seats))]
    rematch = game_create(
        kind=game.kind,
        players=players,
        options=game.options,
        rated=game.rated,
        clock_initial=game.clock_initial,
        clock_increment=game.clock_increment,
        correspondence_days=game.correspondence_days,
        first_player=game.engine_initial().first_player,
        created_by=game.created_by,
    )
    game.rematch = rematch
    game.save(update_fields=["rematch"])


def _rematch_accepted(game: Game, seats: list[Seat], seat: Seat) -> None:
    """Note ``seat``'s yes (house bots say yes at once); start the game when all said it."""
    bots = [other.index for other in seats if other.user and other.user.moved_by_site]
    game.rematch_offer = sorted({*game.rematch_offer, *bots, seat.index})
    if len(game.rematch_offer) == len(seats):
        _rematch_start(game, seats)
    else:
        game.save(update_fields=["rematch_offer"])
    _after_commit_game(game)


def _rematch_withdraw(game: Game) -> None:
    """The standing rematch offer lapses for every player."""
    game.rematch_offer = []
    game.save(update_fields=["rematch_offer"])
    _after_commit_game(game)


def rematch_offer(*, game_id: int, user) -> Game:
    """Offer a rematch (or accept the standing offer): it starts once every player accepts."""

    def offer(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if seat.index in game.rematch_offer:
            raise Refused("already_offered", _("You have already asked for a rematch."))
        closed = [other for other in seats if other.user and not other.user.is_active]
        if closed:
            raise Refused(
                "not_allowed",
                _("%(player)s can no longer play.") % {"player": closed[0].user.username},
            )
        others = [other.user_id for other in seats if other.user_id not in (None, user.pk)]
        if not game.rematch_offer and blocks_between(blocker_ids=others, blocked_id=user.pk):
            # A rematch asked for is an invitation: a player who blocked the asker gets none.
            raise Refused(
                "blocked", _("A player at this table does not take invitations from you.")
            )
        _rematch_accepted(game, seats, seat)

    return _with_game(game_id, offer)


def rematch_answer(*, game_id: int, user, accept: bool) -> Game:
    """Accept or decline a rematch another player offered (a decline withdraws it for all)."""

    def answer(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if not game.rematch_offer:
            raise Refused("no_offer", _("Nobody has offered a rematch."))
        if seat.index in game.rematch_offer:
            raise Refused("already_offered", _("You have already asked for a rematch."))
        if accept:
            _rematch_accepted(game, seats, seat)
            return
        _rematch_withdraw(game)

    return _with_game(game_id, answer)


def rematch_cancel(*, game_id: int, user) -> Game:
    """Withdraw your rematch offer (or your acceptance): the offer lapses for everyone."""

    def cancel(game: Game, seats: list[Seat]) -> None:
        seat = _rematch_seat(game, seats, user)
        if seat.index not in game.rematch_offer:
            raise Refused("no_offer", _("You have not asked for a rematch."))
        _rematch_withdraw(game)

    return _with_game(game_id, cancel)


def rematch_lapse(*, game_id: int, user) -> None:
    """A player left the finished game's page: a rematch offer standing there lapses.

    Called by ``presence_record`` once the player's seat update found an offer standing
    (so no query of its own first); the offer is checked again under the game's lock.
    """
    if user is None or not user.is_authenticated:
        return

    def lapse(game: Game, seats: list[Seat]) -> None:
        if game.rematch_offer and game.rematch_id is None:
            _rematch_withdraw(game)

    _with_game(game_id, lapse)
