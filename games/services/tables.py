"""Tables: opening one, challenges, bot games, taking and leaving seats, and the start."""

from __future__ import annotations

import secrets

from celery import current_app as current_celery_app
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.selectors import blocks_between
from accounts.services import bot_ensure
from engine.bots import measured_ratings
from engine.errors import EngineError
from engine.games import game_definition
from games import engine_text, user_events
from games.models import Game, Seat
from games.services.invites import invite_expired, invite_open, invite_table
from games.services.turns import _turn_begin
from games.services.vacations import away_until_of
from games.services.writer import Refused, _after_commit_game, _after_commit_lobby, _with_game

BOT_LEVELS = tuple(User.BotLevel.values)


def bot_level_choices() -> list[tuple[str, str]]:
    """The bot levels, each as people read it with its measured strength (the lobby's and
    the table's choices): "Strong (Topiary: 1700 Elo)"."""
    choices = []
    for level, label in User.BotLevel.choices:
        measured = ", ".join(
            _("%(game)s: %(rating)s Elo")
            % {"game": _(game_definition(name).title), "rating": rating}
            for name, rating in measured_ratings(level).items()
        )
        choices.append((level, f"{label} ({measured})" if measured else str(label)))
    return choices


def players_refusal(game) -> str:
    """Why a table of ``game`` (an engine descriptor) cannot have the number of players
    asked for: ``Topiary is for 2 to 4 players.``"""
    low, high = game.seats
    if low == high:
        return ngettext(
            "%(game)s is for %(count)s player.", "%(game)s is for %(count)s players.", low
        ) % {"game": game.title, "count": low}
    return _("%(game)s is for %(low)s to %(high)s players.") % {
        "game": game.title,
        "low": low,
        "high": high,
    }


def _options_checked(kind: str, players: int, options: dict | None) -> dict:
    """The table's rule options as the engine reads them; Refused if it does not."""
    try:
        return game_definition(kind).table_options(players, options)
    except EngineError as error:
        raise Refused("bad_request", engine_text.error_message(error)) from None


def _time_checked(clock_initial, clock_increment, correspondence_days) -> dict:
    live_clock = clock_initial is not None
    if live_clock == (correspondence_days is not None):
        raise Refused("bad_request", _("A table has either a live clock or days per move."))
    if live_clock and (clock_initial <= 0 or (clock_increment or 0) < 0):
        raise Refused("bad_request", _("A live clock needs a positive initial time."))
    if not live_clock and correspondence_days <= 0:
        raise Refused("bad_request", _("Days per move must be at least 1."))
    return {
        "clock_initial": clock_initial,
        "clock_increment": (clock_increment or 0) if live_clock else None,
        "correspondence_days": correspondence_days,
    }


def _new_game(
    *, kind, players, options, rated, time, created_by, invited=None, in_event=False
) -> Game:
    return Game.objects.create(
        kind=kind,
        options=_options_checked(kind, players, options),
        seed=secrets.randbits(62),
        rated=rated,
        created_by=created_by,
        invited=invited,
        in_event=in_event,
        **time,
    )


def human_check(user) -> None:
    """Refused unless ``user`` is a signed-in person: bots are seated by the site."""
    if user is None or not user.is_authenticated:
        raise Refused("not_signed_in", _("Sign in to play."))
    if user.moved_by_site:
        raise Refused("bad_request", _("Bots are seated by the site, not by themselves."))


def table_create(
    *,
    user,
    kind: str,
    players: int = 2,
    options: dict | None = None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
    invited=None,
    unlisted: bool = False,
) -> Game:
    """An open table with ``user`` in seat 0, waiting for players (or for ``invited`` only).

    A table for anyone gets an invite link (``games.services.invites``); ``unlisted``
    keeps it out of the lobby, so only the link seats anyone."""
    human_check(user)
    time = _time_checked(clock_initial, clock_increment, correspondence_days)
    with transaction.atomic():
        game = _new_game(
            kind=kind,
            players=players,
            options=options,
            rated=rated,
            time=time,
            created_by=user,
            invited=invited,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user if i == 0 else None) for i in range(game.seat_count)
        )
        if invited is None:
            game.unlisted = unlisted
            invite_open(game)
            game.save(update_fields=["unlisted", "invite_nonce", "invite_hash"])
        _after_commit_lobby()
        user_events.challenge_sent(game)
    return game


def challenge_create(
    *,
    user,
    opponent_username: str,
    kind: str,
    options: dict | None = None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
) -> Game:
    """Challenge one player by name to a 2-player game; a house bot accepts at once.

    Except when the challenger is an outside bot: the house bot then answers after
    ``settings.HOUSE_BOT_ANSWER_DELAY`` seconds, never faster than a person is answered
    (issue 16), so a program cannot farm games against the house bots at machine speed.
    """
    human_check(user)
    opponent = User.objects.filter(username__iexact=opponent_username.strip()).first()
    if opponent is None:
        raise Refused(
            "bad_request",
            _("There is no player called %(name)s.") % {"name": repr(opponent_username)},
        )
    if opponent.pk == user.pk:
        raise Refused("bad_request", _("You cannot challenge yourself."))
    if blocks_between(blocker_ids=[opponent.pk], blocked_id=user.pk):
        raise Refused(
            "blocked",
            _("You cannot challenge %(name)s: they do not take challenges from you.")
            % {"name": opponent.username},
        )
    if blocks_between(blocker_ids=[user.pk], blocked_id=opponent.pk):
        raise Refused(
            "blocked",
            _("You blocked %(name)s: unblock them first to challenge them.")
            % {"name": opponent.username},
        )
    outside_bot = user.is_bot and not user.moved_by_site
    if opponent.moved_by_site and not outside_bot:
        return game_create(
            kind=kind,
            players=[user, opponent],
            options=options,
            rated=rated,
            clock_initial=clock_initial,
            clock_increment=clock_increment,
            correspondence_days=correspondence_days,
            created_by=user,
        )
    game = table_create(
        user=user,
        kind=kind,
        players=2,
        options=options,
        rated=rated,
        clock_initial=clock_initial,
        clock_increment=clock_increment,
        correspondence_days=correspondence_days,
        invited=opponent,
    )
    if opponent.moved_by_site:
        _queue_house_bot_answer(game)
    return game


def _queue_house_bot_answer(game: Game) -> None:
    game_id, delay = game.pk, settings.HOUSE_BOT_ANSWER_DELAY
    task = current_celery_app.tasks["games.tasks.house_bot_answer"]
    # robust: if the broker blinks, the challenge stays open for the challenger to withdraw.
    transaction.on_commit(lambda: task.apply_async((game_id,), countdown=delay), robust=True)


def house_bot_answer(*, game_id: int) -> None:
    """The invited house bot accepts a challenge; nothing if it was accepted or withdrawn."""

    def accept(game: Game, seats: list[Seat]) -> None:
        invited = game.invited
        if game.status != Game.Status.OPEN or invited is None or not invited.moved_by_site:
            return
        _seat_fill(game, seats, [invited])

    try:
        _with_game(game_id, accept)
    except Refused as refusal:
        if refusal.code != "not_found":  # withdrawn: the table was removed
            raise


def bot_pick(level: str, *, besides=()):
    """A bot playing at ``level`` who is not one of ``besides``: the house bot first.

    A table of several bots of one level gets numbered companions of the house
    bot (GreedyBot2, ...), so each seat is its own player for the ratings.
    """
    if level not in BOT_LEVELS:
        raise Refused(
            "bad_request",
            _("Unknown bot level %(level)s: choose %(levels)s.")
            % {"level": repr(level), "levels": ", ".join(BOT_LEVELS)},
        )
    taken = {user.pk for user in besides if user is not None}
    house = bot_ensure(level=level)
    if house.pk not in taken:
        return house
    users = User.objects
    bot = users.filter(is_bot=True, bot_level=level).exclude(pk__in=taken).order_by("pk").first()
    if bot is not None:
        return bot
    number = 2
    while True:
        while users.filter(username__iexact=f"{house.username}{number}").exists():
            number += 1
        try:
            # Two tables created at once may both pick this number; the unique
            # username decides, and the loser takes the next one.
            with transaction.atomic():
                return users.create(
                    username=f"{house.username}{number}",
                    is_bot=True,
                    bot_level=level,
                    password=make_password(None),
                )
        except IntegrityError:
            number += 1


def bot_game_create(
    *,
    user,
    kind: str,
    level: str,
    players: int = 2,
    options: dict | None = None,
    rated: bool = False,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
) -> Game:
    """Play bots right now: ``user`` in seat 0 and bots of ``level`` in the other seats."""
    human_check(user)
    seated = [user]
    for _seat in range(players - 1):
        seated.append(bot_pick(level, besides=seated))
    return game_create(
        kind=kind,
        players=seated,
        options=options,
        rated=rated,
        clock_initial=clock_initial,
        clock_increment=clock_increment,
        correspondence_days=correspondence_days,
        created_by=user,
    )


def game_create(
    *,
    kind: str,
    players: list,
    options: dict | None,
    rated: bool,
    clock_initial: int | None,
    clock_increment: int | None,
    correspondence_days: int | None,
    first_player: int | None = None,
    created_by=None,
    in_event: bool = False,
) -> Game:
    """A started game with ``players`` (users, in seat order) in its seats.

    ``in_event``: a tournament's game (no short-game abort, no rematch).
    """
    if len({user.pk for user in players}) != len(players):
        raise Refused("bad_request", _("A player can take only one seat at a table."))
    time = _time_checked(clock_initial, clock_increment, correspondence_days)
    with transaction.atomic():
        game = _new_game(
            kind=kind,
            players=len(players),
            options=options,
            rated=rated,
            time=time,
            created_by=created_by,
            in_event=in_event,
        )
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user=user) for i, user in enumerate(players)
        )
        _game_start(game, list(game.seats.select_related("user").order_by("index")), first_player)
    return game


def _game_start(game: Game, seats: list[Seat], first_player: int | None = None) -> None:
    """Deal, start the clocks and hand the first turn over."""
    module = game.engine
    try:
        state = module.new_game(
            module.Options.from_json(game.options), game.seed, first_player=first_player
        )
    except EngineError as error:
        raise Refused("bad_request", engine_text.error_message(error)) from None
    now = timezone.now()
    game.state = game.initial = state.to_json()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.invite_hash = None
    away = {} if game.is_live else away_until_of([seat.user_id for seat in seats], now)
    for seat in seats:
        seat.clock_ms = game.clock_initial * 1000 if game.is_live else None
        seat.last_seen = None
        seat.away_until = away.get(seat.user_id)
        seat.save(update_fields=["clock_ms", "last_seen", "away_until"])
    _turn_begin(game, seats, state, now)
    game.save()
    _after_commit_game(game)
    _after_commit_lobby()
    user_events.game_started(game, seats)


def table_join(*, game_id: int, user, by_link: bool = False) -> Game:
    """Take the first free seat at an open table; the game starts when the last seat is taken.

    ``by_link``: the player came by the table's invite link (``games.services.invites``),
    which an unlisted table requires."""
    human_check(user)

    def join(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("This table is no longer waiting for players."))
        if any(seat.user_id == user.pk for seat in seats):
            raise Refused("already_seated", _("You already sit at this table."))
        if game.invited_id is not None and game.invited_id != user.pk:
            raise Refused("not_invited", _("This table is a challenge to another player."))
        if game.unlisted and not by_link:
            raise Refused("not_invited", _("This table takes players by its invite link only."))
        seated = [seat.user_id for seat in seats if seat.user_id is not None]
        if blocks_between(blocker_ids=seated, blocked_id=user.pk):
            raise Refused(
                "blocked", _("A player at this table does not take invitations from you.")
            )
        _seat_fill(game, seats, [user])

    return _with_game(game_id, join)


def invite_join(*, token: str, user) -> Game:
    """Take a seat at the table an invite link names (``table_join``, by the link); the
    game starts when the last seat is taken."""
    game = invite_table(token=token)
    try:
        return table_join(game_id=game.pk, user=user, by_link=True)
    except Refused as refusal:
        if refusal.code in ("not_open", "not_found"):
            # Started or closed between the look-up and the seat: the link is spent.
            raise invite_expired() from None
        raise


def _seat_fill(game: Game, seats: list[Seat], users: list) -> None:
    free = [seat for seat in seats if seat.user_id is None]
    for seat, user in zip(free, users, strict=False):
        seat.user = user
        seat.save(update_fields=["user"])
    if all(seat.user_id is not None for seat in seats):
        game.invited = None
        _game_start(game, seats)
    else:
        _after_commit_game(game)
        _after_commit_lobby()


def table_fill_with_bots(*, game_id: int, user, level: str) -> Game:
    """Seat bots of ``level`` in every free seat of a table ``user`` sits at, and start it."""

    def fill(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("This table is no longer waiting for players."))
        if not any(seat.user_id == user.pk for seat in seats):
            raise Refused("not_seated", _("Only a player at the table may call in bots."))
        if game.invited_id is not None:
            raise Refused("not_allowed", _("A challenge waits for the player it is addressed to."))
        seated = [seat.user for seat in seats if seat.user is not None]
        bots = []
        for _free in range(len(seats) - len(seated)):
            bots.append(bot_pick(level, besides=seated + bots))
        _seat_fill(game, seats, bots)

    return _with_game(game_id, fill)


def table_leave(*, game_id: int, user) -> Game | None:
    """Leave an open table (or decline a challenge); a table left empty is removed."""

    def leave(game: Game, seats: list[Seat]) -> None:
        if game.status != Game.Status.OPEN:
            raise Refused("not_open", _("The game has started: resign or abort instead."))
        mine = [seat for seat in seats if seat.user_id == user.pk]
        if not mine and game.invited_id != user.pk:
            raise Refused("not_seated", _("You do not sit at this table."))
        for seat in mine:
            seat.user = None
            seat.save(update_fields=["user"])
        humans = [seat for seat in seats if seat.user is not None and not seat.user.moved_by_site]
        if not humans or game.invited_id == user.pk:
            user_events.challenge_gone(game, by=user)
            game.delete()
        else:
            _after_commit_game(game)
        _after_commit_lobby()

    return _with_game(game_id, leave)
