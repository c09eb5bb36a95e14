"""Quick pairing (the lobby's grid): writes for seeks. Reads are in ``games.seek_selectors``.

A seek waits in one cell: a game, a number of players, a time control, rated or
casual. Everything that changes a cell's seeks locks the cell's ``SeekPool`` row
first, so each cell has one writer at a time: two players seeking at once are
paired into one game, never two, and a seek is paired at most once. A seek is
paired with the oldest seeks of its cell whose players fit its rating range and in
whose range it fits; with 3-4 players it waits until the table is full, or until
the wait its player chose has passed, and then bots fill the free seats
(``seeks_top_up``, run by beat).
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block
from engine.games import all_games, game_definition
from games import live, services
from games.hooks import ratings_for
from games.models import Game, Seat, Seek, SeekPool, TimeControl
from games.services import Refused

log = logging.getLogger(__name__)

#: The rating ranges a seek may ask for, as "within N points of mine" (None: anyone).
RATING_RANGES = (100, 200, 300, 500)
#: The waits (seconds) a 3-4 player seek may choose before bots fill the free seats.
BOT_WAITS = (10, 30, 60, 120)
#: The level of the bots that fill a quick-pairing table.
SEEK_BOT_LEVEL = "greedy"
#: A seek nobody paired for this long is dropped (its socket may have died with its server).
SEEK_MAX_AGE = timedelta(minutes=30)


def cell_key(kind: str, players: int, time_control: str, rated: bool) -> str:
    """The name of a cell: ``topiary:2:3+2:rated``."""
    return f"{kind}:{players}:{time_control}:{'rated' if rated else 'casual'}"


def _cell_checked(kind, players, time_control, rated) -> tuple[str, int, str, bool]:
    """(kind, players, time control, rated) of a cell the grid offers; Refused otherwise."""
    if not isinstance(kind, str) or kind not in {game.name for game in all_games()}:
        raise Refused("bad_request", _("There is no game %(kind)s.") % {"kind": repr(kind)})
    game = game_definition(kind)
    if type(players) is not int or players not in game.seat_choices:
        raise Refused("bad_request", services.players_refusal(game))
    if time_control not in TimeControl.values:
        raise Refused(
            "bad_request",
            _("There is no time control %(time_control)s.") % {"time_control": repr(time_control)},
        )
    if type(rated) is not bool:
        raise Refused("bad_request", _("Rated is true or false."))
    return kind, players, time_control, rated


def _pools_locked(*cells: str) -> None:
    """Lock the cells' rows until the transaction ends (created on first use), always in
    the same order, so two writers locking two cells each never wait on each other."""
    for cell in sorted(set(cells)):
        SeekPool.objects.get_or_create(cell=cell)
        SeekPool.objects.select_for_update().get(cell=cell)


def _paired_push(seeks: list[Seek], game_id: int) -> None:
    """After the commit: each paired seek's socket hears of its game."""
    frame = {"type": "paired", "game": game_id, "url": reverse("games:game", args=[game_id])}
    channels = [seek.channel for seek in seeks if seek.channel]
    transaction.on_commit(lambda: live.send_channels(channels, frame))


def _game_from(seeks: list[Seek], bots: list) -> int:
    """Start the cell's game with ``seeks``' players (and ``bots``) in a random seat order."""
    first = seeks[0]
    players = [seek.user for seek in seeks] + bots
    order = list(players)
    # Who sits where (hence who moves first) must not depend on who clicked first.
    for i in range(len(order) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    game = services.game_create(
        kind=first.kind,
        players=order,
        options={},
        rated=first.rated,
        created_by=None,
        **TimeControl(first.time_control).fields(),
    )
    deleted, _ = Seek.objects.filter(pk__in=[seek.pk for seek in seeks]).delete()
    if deleted != len(seeks):  # cannot happen while every writer locks the cell first
        raise RuntimeError(f"seeks of {first.cell} changed under the cell's lock")
    _paired_push(seeks, game.pk)
    log.info("quick pairing", extra={"game_id": game.pk, "cell": first.cell})
    return game.pk


def _playing_live(user) -> bool:
    """True while ``user`` plays a live game (one seat at a time, like lichess)."""
    return Seat.objects.filter(
        user=user, forfeit="", game__status=Game.Status.ACTIVE, game__clock_initial__isnull=False
    ).exists()


def _group_for(seek: Seek, others: list[Seek], size: int) -> list[Seek]:
    """``seek`` and the oldest of ``others`` who suit it and each other, at most ``size``;
    two players of whom one blocked the other never sit at one table."""
    user_ids = [seek.user_id, *(other.user_id for other in others)]
    blocked = {
        frozenset(pair)
        for pair in Block.objects.filter(
            blocker_id__in=user_ids, blocked_id__in=user_ids
        ).values_list("blocker_id", "blocked_id")
    }
    group = [seek]
    for other in others:
        if len(group) == size:
            break
        if all(
            member.suits(other) and frozenset((member.user_id, other.user_id)) not in blocked
            for member in group
        ):
            group.append(other)
    return group


def seek_place(
    *,
    user,
    kind: str,
    players: int,
    time_control: str,
    rated: bool = True,
    rating_range: int | None = None,
    bots_after: int | None = None,
    channel: str = "",
) -> int | None:
    """Seek a game in a cell; the id of the game if it paired at once, else None.

    Replaces the player's earlier seek (one at a time). ``rating_range``: opponents
    within that many points of the player's rating (None: anyone); ``bots_after``
    (3-4 players): seconds before bots fill the free seats (None: people only).
    """
    services.human_check(user)
    kind, players, time_control, rated = _cell_checked(kind, players, time_control, rated)
    if rating_range is not None and rating_range not in RATING_RANGES:
        raise Refused(
            "bad_request",
            _("A rating range is one of %(ranges)s or none.") % {"ranges": RATING_RANGES},
        )
    if bots_after is not None and (players == 2 or bots_after not in BOT_WAITS):
        raise Refused(
            "bad_request",
            _("Bots fill 3-4 player tables after one of %(waits)s s.") % {"waits": BOT_WAITS},
        )
    rating, _shown = ratings_for(user_ids=[user.pk], kind=kind)[user.pk]
    seek = Seek(
        user=user,
        cell=cell_key(kind, players, time_control, rated),
        kind=kind,
        players=players,
        time_control=time_control,
        rated=rated,
        rating=rating,
        rating_min=None if rating_range is None else rating - rating_range,
        rating_max=None if rating_range is None else rating + rating_range,
        bots_after=bots_after,
        channel=channel,
    )
    earlier = Seek.objects.filter(user=user).values_list("cell", flat=True).first()
    try:
        with transaction.atomic():
            # The cell of the seek this one replaces is locked too: a writer pairing there
            # must not pair it while it is being withdrawn.
            _pools_locked(seek.cell, *([earlier] if earlier else []))
            if Seek.objects.filter(user=user).values_list("cell", flat=True).first() not in (
                None,
                earlier,
            ):
                raise Refused("busy", _("Your seek changed in another window: try again."))
            if seek.is_live and _playing_live(user):
                raise Refused("playing", _("Finish your live game before seeking another."))
            Seek.objects.filter(user=user).delete()
            seek.save()
            others = list(
                Seek.objects.filter(cell=seek.cell)
                .exclude(pk=seek.pk)
                .select_related("user")
                .order_by("created_at", "pk")
            )
            group = _group_for(seek, others, players)
            game_id = _game_from(group, []) if len(group) == players else None
            transaction.on_commit(live.lobby_changed)
    except IntegrityError:
        # The same player seeking from two windows at the same instant: one seek stands.
        raise Refused("busy", _("You are already seeking in another window.")) from None
    return game_id


def seek_cancel(*, user, channel: str | None = None) -> bool:
    """Withdraw the player's seek (only the one ``channel`` placed, when given); True if
    there was one. Clicking the cell again, or closing the page, comes here."""
    if user is None or not user.is_authenticated:
        return False
    seek = Seek.objects.filter(user=user).values_list("cell", "channel").first()
    if seek is None or (channel is not None and seek[1] != channel):
        return False
    with transaction.atomic():
        _pools_locked(seek[0])
        found = Seek.objects.filter(user=user, cell=seek[0])
        if channel is not None:
            found = found.filter(channel=channel)
        deleted, _ = found.delete()
        if deleted:
            transaction.on_commit(live.lobby_changed)
    return bool(deleted)


def _top_up(seek_id: int, now) -> int | None:
    """Fill the table of one seek whose wait for people is over; the game id, or None."""
    cell = Seek.objects.filter(pk=seek_id).values_list("cell", flat=True).first()
    if cell is None:
        return None
    with transaction.atomic():
        _pools_locked(cell)
        seek = Seek.objects.select_related("user").filter(pk=seek_id).first()
        if seek is None or seek.bots_after is None:
            return None
        if seek.created_at > now - timedelta(seconds=seek.bots_after):
            return None
        # Those waiting with it who also accept bots join it; people only wait on.
        others = list(
            Seek.objects.filter(cell=cell, bots_after__isnull=False)
            .exclude(pk=seek.pk)
            .select_related("user")
            .order_by("created_at", "pk")
        )
        group = _group_for(seek, others, seek.players)
        bots: list = []
        for _free in range(seek.players - len(group)):
            bots.append(services.bot_pick(SEEK_BOT_LEVEL, besides=[s.user for s in group] + bots))
        game_id = _game_from(group, bots)
        transaction.on_commit(live.lobby_changed)
    return game_id


def seeks_top_up() -> dict:
    """The periodic job: bots fill the tables whose chosen wait is over; old seeks go."""
    now = timezone.now()
    stale, _ = Seek.objects.filter(created_at__lte=now - SEEK_MAX_AGE).delete()
    if stale:
        live.lobby_changed()
    due = [
        seek_id
        for seek_id, created, wait in Seek.objects.filter(bots_after__isnull=False)
        .order_by("created_at")
        .values_list("pk", "created_at", "bots_after")
        if created <= now - timedelta(seconds=wait)
    ]
    games = [game_id for seek_id in due if (game_id := _top_up(seek_id, now)) is not None]
    return {"dropped": stale, "topped_up": len(games)}
