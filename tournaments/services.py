"""Writes of the tournaments app: create, join, withdraw, start, pair, score, finish.

Every change to a running event goes through ``tournament_advance``, which locks the
tournament row first: a beat tick, a finished game and a restarted worker can all
call it at once and the round is still paired once (``Round`` numbers are unique
per tournament as a second guard). All state is in the database.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import NotationError
from engine.games import game_definition
from games import live
from games.models import Game
from ratings.selectors import rating_values
from tournaments.formats import format_for
from tournaments.models import (
    Entry,
    Pairing,
    PairingPlayer,
    Round,
    Tournament,
    not_enough_players,
)
from tournaments.pairing import RoundPairing
from tournaments.seasons import event_results_store
from tournaments.selectors import (
    arena_waiting,
    competitors_for,
    players_needed,
    standings_order,
)
from tournaments.signals import tournament_started
from tournaments.standings import game_outcome

log = logging.getLogger(__name__)

Format = Tournament.Format

#: Limits that keep an event playable; anything outside is refused at creation (the
#: limits of rounds, duration and players belong to the formats, ``tournaments.formats``).
CLOCK_SECONDS = (15, 3 * 60 * 60)
MAX_INCREMENT = 60
MAX_DAYS_AHEAD = 90
NAME_LENGTH = 80
#: A game ended this long ago and still unscored lost its scoring task.
SCORING_OVERDUE = timedelta(seconds=30)


def _either(numbers) -> str:
    """``3 or 4``: the numbers of players a format seats, as a sentence says them."""
    numbers = [str(n) for n in numbers]
    if len(numbers) == 1:
        return numbers[0]
    return _("%(first)s or %(last)s") % {"first": ", ".join(numbers[:-1]), "last": numbers[-1]}


def _seats_refused(rules, game) -> str:
    """Why a format and a game (or a table size) do not go together."""
    values = {"format": rules.label, "sizes": _either(rules.table_sizes)}
    if game is None:
        return _("%(format)s seats %(sizes)s players a table.") % values
    values["game"] = _(game.title)
    low, high = game.seats
    if low == high:
        return ngettext(
            "%(format)s seats %(sizes)s players a table; %(game)s is for %(count)s player.",
            "%(format)s seats %(sizes)s players a table; %(game)s is for %(count)s players.",
            low,
        ) % {**values, "count": low}
    return ngettext(
        "%(format)s seats %(sizes)s players a table; %(game)s is for %(low)s to %(high)s player.",
        "%(format)s seats %(sizes)s players a table; %(game)s is for %(low)s to %(high)s players.",
        high,
    ) % {**values, "low": low, "high": high}


def _clock_limits() -> str:
    low, high = CLOCK_SECONDS
    return _("The clock starts between %(low)s and %(high)s.") % {
        "low": ngettext("%(count)s second", "%(count)s seconds", low) % {"count": low},
        "high": ngettext("%(count)s hour", "%(count)s hours", high // 3600)
        % {"count": high // 3600},
    }


def _validate(fields: dict) -> dict:
    """The cleaned fields of a new tournament, or ``ValidationError`` naming each bad one."""
    errors: dict[str, str] = {}
    fmt, kind, size = fields["format"], fields["kind"], fields["table_size"]
    if not (fields["name"] or "").strip():
        errors["name"] = _("Give the tournament a name.")
    elif len(fields["name"].strip()) > NAME_LENGTH:
        errors["name"] = ngettext(
            "Keep the name to %(most)s character.",
            "Keep the name to %(most)s characters.",
            NAME_LENGTH,
        ) % {"most": NAME_LENGTH}
    try:
        game = game_definition(kind)
    except NotationError:
        game = None
        errors["kind"] = f"Unknown game {kind!r}."
    if fmt not in Format.values:
        errors["format"] = _("Unknown format %(format)s.") % {"format": repr(fmt)}
    else:
        rules = format_for(fmt)
        if game is not None and not set(rules.table_sizes) & set(game.seat_choices):
            errors["format"] = _seats_refused(rules, game)
        elif size not in rules.table_sizes or (game is not None and size not in game.seat_choices):
            errors["table_size"] = _seats_refused(rules, None)

    place_points = {}
    if fmt in Format.values:
        # The format judges its own settings: rounds, duration, players, points per place.
        format_errors, place_points = format_for(fmt).validate(fields)
        errors.update(format_errors)

    low, high = CLOCK_SECONDS
    if fields["clock_initial"] is None or not low <= fields["clock_initial"] <= high:
        errors["clock_initial"] = _clock_limits()
    if fields["clock_increment"] is None or not 0 <= fields["clock_increment"] <= MAX_INCREMENT:
        errors["clock_increment"] = ngettext(
            "The increment is 0 to %(most)s second.",
            "The increment is 0 to %(most)s seconds.",
            MAX_INCREMENT,
        ) % {"most": MAX_INCREMENT}

    starts_at, now = fields["starts_at"], timezone.now()
    if starts_at is None or timezone.is_naive(starts_at):
        errors["starts_at"] = _("Give a start time with its time zone.")
    elif starts_at < now:
        errors["starts_at"] = _("The start time has passed.")
    elif starts_at > now + timedelta(days=MAX_DAYS_AHEAD):
        errors["starts_at"] = ngettext(
            "Start within %(days)s day.", "Start within %(days)s days.", MAX_DAYS_AHEAD
        ) % {"days": MAX_DAYS_AHEAD}

    if errors:
        raise ValidationError(errors)
    return {**fields, "name": fields["name"].strip(), "place_points": place_points}


def tournament_create(
    *,
    created_by,
    name: str,
    kind: str,
    format: str,
    starts_at,
    max_players: int,
    clock_initial: int,
    clock_increment: int = 0,
    rated: bool = True,
    bots_allowed: bool = False,
    rounds: int | None = None,
    duration_minutes: int | None = None,
    table_size: int = 2,
    place_points: dict | None = None,
) -> Tournament:
    """Create an upcoming tournament; ``ValidationError`` (nothing created) for bad settings."""
    if created_by is None or not created_by.is_authenticated:
        raise ValidationError(_("Sign in to create a tournament."))
    cleaned = _validate(
        {
            "name": name,
            "kind": kind,
            "format": format,
            "table_size": table_size,
            "rounds": rounds,
            "duration_minutes": duration_minutes,
            "clock_initial": clock_initial,
            "clock_increment": clock_increment,
            "max_players": max_players,
            "starts_at": starts_at,
            "place_points": place_points,
        }
    )
    return Tournament.objects.create(
        created_by=created_by, rated=rated, bots_allowed=bots_allowed, **cleaned
    )


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise ValidationError(_("No such tournament.")) from None


def _changed(tournament: Tournament) -> None:
    """Bump the version and tell watchers once the change is committed."""
    tournament.version += 1
    tournament.save(update_fields=["version", "status", "started_at", "finished_at", "note"])
    tournament_id, version = tournament.pk, tournament.version
    # Live pages are a convenience: they resync over HTTP, and a failed push is only logged.
    transaction.on_commit(lambda: live.tournament_changed(tournament_id, version))


def _not_upcoming(tournament: Tournament) -> str:
    """Why an entry or an early start comes too late."""
    if tournament.status == Tournament.Status.RUNNING:
        return _("This tournament has already started.")
    return _("This tournament is over.")


def _enter(tournament: Tournament, user) -> Entry:
    if tournament.status != Tournament.Status.UPCOMING:
        raise ValidationError(_not_upcoming(tournament))
    if tournament.entries.filter(user=user).exists():
        raise ValidationError(_("%(player)s is already entered.") % {"player": user})
    if tournament.entries.count() >= tournament.max_players:
        raise ValidationError(_("This tournament is full."))
    entry = Entry.objects.create(tournament=tournament, user=user)
    _changed(tournament)
    return entry


@transaction.atomic
def tournament_join(*, tournament_id: int, user) -> Entry:
    """Enter a signed-in player before the start; refused if full, started, over or entered,
    and a BOT account unless the creator allows bots."""
    if user is None or not user.is_authenticated:
        raise ValidationError(_("Sign in to join a tournament."))
    tournament = _locked(tournament_id)
    if user.is_bot and not tournament.bots_allowed:
        if tournament.created_by_id is None:  # a scheduled event: the schedule says so
            raise ValidationError(_("This tournament is for people: bots may not join."))
        raise ValidationError(
            _("This tournament is for people: its creator does not let bots join by themselves.")
        )
    return _enter(tournament, user)


@transaction.atomic
def tournament_enter_bot(*, tournament_id: int, by, bot) -> Entry:
    """The creator enters a bot before the start (same limits as joining)."""
    tournament = _locked(tournament_id)
    if by is None or tournament.created_by_id != by.pk:
        raise ValidationError(_("Only the tournament's creator can enter bots."))
    if not bot.is_bot:
        raise ValidationError(
            _("%(player)s is not a bot; players join for themselves.") % {"player": bot}
        )
    return _enter(tournament, bot)


def _withdraw(tournament: Tournament, entry: Entry) -> None:
    """Before the start the entry goes; during the event, no further pairings."""
    if tournament.status == Tournament.Status.UPCOMING:
        entry.delete()
    elif tournament.status == Tournament.Status.RUNNING:
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
    else:
        raise ValidationError(_("This tournament is over."))
    _changed(tournament)


@transaction.atomic
def tournament_withdraw(*, tournament_id: int, user) -> None:
    """Leave a tournament: before the start the entry goes; during it, no further pairings."""
    tournament = _locked(tournament_id)
    entry = tournament.entries.filter(user=user).first()
    if entry is None or entry.withdrawn_at is not None:
        raise ValidationError(_("You are not in this tournament."))
    _withdraw(tournament, entry)


def _creator_only(tournament: Tournament, by, refusal: str) -> None:
    if by is None or not by.is_authenticated or tournament.created_by_id != by.pk:
        raise ValidationError(refusal)


@transaction.atomic
def tournament_withdraw_bot(*, tournament_id: int, by, bot) -> None:
    """The creator takes a bot out of their event: before the start it is no longer
    entered; during the event it gets no further pairings (its games so far count)."""
    tournament = _locked(tournament_id)
    _creator_only(tournament, by, _("Only the tournament's creator can withdraw bots."))
    entry = tournament.entries.filter(user=bot, withdrawn_at__isnull=True).first()
    if bot is None or not bot.is_bot or entry is None:
        raise ValidationError(_("That bot is not in this tournament."))
    _withdraw(tournament, entry)


@transaction.atomic
def tournament_cancel(*, tournament_id: int, by) -> Tournament:
    """The creator calls off their event before it starts (refused once it has begun)."""
    tournament = _locked(tournament_id)
    _creator_only(tournament, by, _("Only the tournament's creator can cancel it."))
    if tournament.status != Tournament.Status.UPCOMING:
        raise ValidationError(_not_upcoming(tournament))
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancelled_by_creator = True
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["cancelled_by_creator"])
    _changed(tournament)
    return tournament


#: What the creator may change before the start: not the game, the format or the table
#: size, which the entrants (and the bots entered) joined for.
EDITABLE = (
    "name",
    "starts_at",
    "max_players",
    "clock_initial",
    "clock_increment",
    "rounds",
    "duration_minutes",
    "rated",
    "bots_allowed",
)


@transaction.atomic
def tournament_edit(*, tournament_id: int, by, **changes) -> Tournament:
    """The creator changes an upcoming event's settings (``EDITABLE``), judged as at
    creation; ``ValidationError`` (nothing changed) otherwise. Not below the players
    already entered."""
    tournament = _locked(tournament_id)
    _creator_only(tournament, by, _("Only the tournament's creator can edit it."))
    if tournament.status != Tournament.Status.UPCOMING:
        raise ValidationError(_not_upcoming(tournament))
    fixed = sorted(set(changes) - set(EDITABLE))
    if fixed:
        raise ValidationError(
            _("%(fields)s cannot be changed once the tournament is created.")
            % {"fields": ", ".join(fixed)}
        )
    current = {name: getattr(tournament, name) for name in EDITABLE}
    fields = {**current, **changes}
    cleaned = _validate(
        {
            **{k: fields[k] for k in EDITABLE if k not in ("rated", "bots_allowed")},
            "kind": tournament.kind,
            "format": tournament.format,
            "table_size": tournament.table_size,
            "place_points": tournament.place_points or None,
        }
    )
    entered = tournament.entries.count()
    if cleaned["max_players"] < entered:
        raise ValidationError(
            {
                "max_players": ngettext(
                    "%(count)s player is entered already.",
                    "%(count)s players are entered already.",
                    entered,
                )
                % {"count": entered}
            }
        )
    for name in EDITABLE:
        setattr(tournament, name, cleaned.get(name, fields[name]))
    tournament.save(update_fields=list(EDITABLE))
    _changed(tournament)
    return tournament


def _active_entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"))


def _create_game(tournament: Tournament, pairing: Pairing, entries: list[Entry]) -> None:
    from games.services import game_create

    pairing.game = game_create(
        kind=tournament.kind,
        players=[entry.user for entry in entries],
        options={},
        rated=tournament.rated,
        clock_initial=tournament.clock_initial,
        clock_increment=tournament.clock_increment,
        correspondence_days=None,
        first_player=0,
        created_by=tournament.created_by,
        in_event=True,
    )
    pairing.save(update_fields=["game"])


def _add_pairing(
    tournament: Tournament, round_: Round | None, board: int, entries: list[Entry]
) -> Pairing:
    pairing = Pairing.objects.create(
        tournament=tournament, round=round_, board=board, is_bye=len(entries) == 1
    )
    PairingPlayer.objects.bulk_create(
        [PairingPlayer(pairing=pairing, entry=e, seat=i) for i, e in enumerate(entries)]
    )
    return pairing


def _store_round(
    tournament: Tournament, number: int, plan: RoundPairing, entries: dict[int, Entry]
) -> Round:
    """Store a paired round: its tables on the first boards, then one board per bye."""
    round_ = Round.objects.create(tournament=tournament, number=number)
    for board, table in enumerate([*plan.tables, *((pk,) for pk in plan.byes)], start=1):
        _add_pairing(tournament, round_, board, [entries[pk] for pk in table])
    return round_


def _score_without_game(pairing: Pairing, points: dict[int, float], forfeit: bool) -> None:
    for player in pairing.players.all():
        player.points = points[player.entry_id]
        player.place = 1 if points[player.entry_id] else None
        player.forfeit = forfeit and bool(points[player.entry_id])
        player.save(update_fields=["points", "place", "forfeit"])
    pairing.scored_at = timezone.now()
    pairing.save(update_fields=["scored_at"])


def _begin_round(tournament: Tournament, round_: Round) -> None:
    """Start a round whose pairings are stored: byes and forfeits are scored, games created."""
    format_rules = tournament.format_rules
    round_.started_at = timezone.now()
    round_.save(update_fields=["started_at"])
    for pairing in round_.pairings.prefetch_related("players__entry__user"):
        seated = [p.entry for p in pairing.players.all()]
        if pairing.is_bye:
            points = format_rules.bye_points(tournament)
            _score_without_game(pairing, {seated[0].pk: points}, forfeit=False)
            continue
        present = [e for e in seated if e.withdrawn_at is None]
        if len(present) < len(seated):
            # A pairing stored before someone withdrew (round robin): the one still here wins.
            win = format_rules.forfeit_points(tournament)
            points = {e.pk: (win if e in present else 0.0) for e in seated}
            _score_without_game(pairing, points, forfeit=True)
            continue
        _create_game(tournament, pairing, seated)


def _pair_next_round(tournament: Tournament, number: int) -> Round:
    """Pair and begin round ``number`` from the standings so far."""
    entries = {e.pk: e for e in _active_entries(tournament)}
    competitors = competitors_for(tournament, entries.values())
    plan = tournament.format_rules.pair_round(competitors, tournament.table_size)
    round_ = _store_round(tournament, number, plan, entries)
    _begin_round(tournament, round_)
    return round_


def _open_rounds(tournament: Tournament, entries: list[Entry]) -> None:
    """Store the rounds the format pairs at the start, and begin the first."""
    format_rules = tournament.format_rules
    competitors = competitors_for(tournament, entries)
    planned = format_rules.first_rounds(competitors, tournament.table_size)
    if format_rules.fixed_schedule:
        tournament.rounds = len(planned)
        tournament.save(update_fields=["rounds"])
    by_id = {e.pk: e for e in entries}
    stored = [
        _store_round(tournament, number, plan, by_id)
        for number, plan in enumerate(planned, start=1)
    ]
    _begin_round(tournament, stored[0])


def _start(tournament: Tournament) -> None:
    entries = _active_entries(tournament)
    now = timezone.now()
    bots_alone = tournament.house_bots_alone([e.user for e in entries])
    if len(entries) < players_needed(tournament) or bots_alone:
        tournament.status = Tournament.Status.CANCELLED
        tournament.note = not_enough_players(len(entries), bots_alone=bots_alone)
        tournament.finished_at = now
        return
    ratings = rating_values(user_ids=[e.user_id for e in entries], kind=tournament.kind)
    for entry in entries:
        entry.rating = ratings[entry.user_id]
        entry.save(update_fields=["rating"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament_id, user_ids = tournament.pk, [entry.user_id for entry in entries]
    transaction.on_commit(
        lambda: tournament_started.send(
            sender=Tournament, tournament_id=tournament_id, user_ids=user_ids
        ),
        robust=True,
    )
    if tournament.format_rules.has_rounds:
        _open_rounds(tournament, entries)
    else:
        _pair_waiting(tournament)


@transaction.atomic
def tournament_start_early(*, tournament_id: int, by) -> Tournament:
    """The creator starts an upcoming tournament now instead of at its start time.

    Refused (nothing changes) for anyone but the creator, once it has started or
    ended, and while fewer players are entered than its first round needs: early
    is a convenience, never a way to cancel an event for want of players.
    """
    tournament = _locked(tournament_id)
    _creator_only(tournament, by, _("Only the tournament's creator can start it early."))
    if tournament.status != Tournament.Status.UPCOMING:
        raise ValidationError(_not_upcoming(tournament))
    entered, needed = len(_active_entries(tournament)), players_needed(tournament)
    if entered < needed:
        raise ValidationError(
            ngettext(
                "Starting needs at least %(needed)s player; %(count)s entered so far.",
                "Starting needs at least %(needed)s players; %(count)s entered so far.",
                needed,
            )
            % {"needed": needed, "count": entered}
        )
    _start(tournament)
    _changed(tournament)
    return tournament


def _score_game(tournament: Tournament, pairing: Pairing) -> bool:
    """Store the points of a pairing whose game has ended; False while it is still on."""
    game = pairing.game
    seats = {seat.index: seat for seat in game.seats.all()}
    if game.status == Game.Status.FINISHED:
        if any(seat.rank is None for seat in seats.values()):
            # Ended, not yet scored: the game_finished signal will follow, unless the
            # worker scoring it died; then ask for the scoring again (it runs once).
            if game.finished_at and game.finished_at < timezone.now() - SCORING_OVERDUE:
                from games.tasks import game_score

                game_id = game.pk
                transaction.on_commit(lambda: game_score.delay(game_id))
            return False
        places = [seats[p.seat].rank for p in pairing.players.all()]
    elif game.status == Game.Status.ABORTED:
        places = [None] * pairing.players.count()
    else:
        return False
    players = list(pairing.players.all())
    outcomes = tournament.format_rules.score_game(
        tournament, places, lambda seat: _earlier_outcomes(players[seat])
    )
    for player, place, outcome in zip(players, places, outcomes, strict=True):
        player.place = place
        player.points = outcome.points
        player.on_fire = outcome.on_fire
    PairingPlayer.objects.bulk_update(players, ["place", "points", "on_fire"])
    pairing.scored_at = timezone.now()
    pairing.save(update_fields=["scored_at"])
    return True


def _earlier_outcomes(player: PairingPlayer) -> list[str]:
    """The player's scored games in this event before this one: "win", "draw" or "loss"."""
    earlier = (
        PairingPlayer.objects.filter(entry=player.entry, pairing__scored_at__isnull=False)
        .exclude(pairing=player.pairing)
        .order_by("pairing_id")
    )
    words = {1.0: "win", 0.5: "draw", 0.0: "loss"}
    return [
        words[game_outcome(p.place, [q.place for q in p.pairing.players.all() if q.pk != p.pk])]
        for p in earlier.prefetch_related("pairing__players")
    ]


def _pair_waiting(tournament: Tournament) -> int:
    """Pair the players who are not at a board (no rounds); returns how many games began.

    Players still at a board count as ``others_busy``: the format may hold a pair back
    for them rather than repeat a game (docs/TOURNAMENTS.md, "Arena")."""
    busy = set(
        PairingPlayer.objects.filter(
            pairing__tournament=tournament, pairing__scored_at__isnull=True
        ).values_list("entry_id", flat=True)
    )
    entries = {e.pk: e for e in _active_entries(tournament)}
    idle = [e for pk, e in entries.items() if pk not in busy]
    format_rules = tournament.format_rules
    pairs = format_rules.pair_waiting(
        arena_waiting(tournament, idle, timezone.now()),
        standings_order(tournament),
        others_busy=len(busy & entries.keys()),
        hold=format_rules.hold_seconds(tournament),
    )
    board = tournament.pairings.count()
    for board_offset, pair in enumerate(pairs, start=1):
        seated = [entries[pk] for pk in pair]
        pairing = _add_pairing(tournament, None, board + board_offset, seated)
        _create_game(tournament, pairing, seated)
    return len(pairs)


def _finish(tournament: Tournament) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    if tournament.schedule_entry_id is not None:
        # Under the tournament's lock, with its last points stored: the standings are final.
        event_results_store(tournament)


def _advance_rounds(tournament: Tournament) -> bool:
    current = tournament.round_set.filter(started_at__isnull=False).order_by("-number").first()
    if current is None or current.pairings.filter(scored_at__isnull=True).exists():
        return False
    current.finished_at = current.finished_at or timezone.now()
    current.save(update_fields=["finished_at"])
    last = current.number >= (tournament.rounds or 0)
    if last or len(_active_entries(tournament)) < players_needed(tournament):
        _finish(tournament)
    elif tournament.format_rules.fixed_schedule:
        _begin_round(tournament, tournament.round_set.get(number=current.number + 1))
    else:
        _pair_next_round(tournament, current.number + 1)
    return True


def _advance_without_rounds(tournament: Tournament, now) -> bool:
    """Pair whoever is free until the time is up; then finish once the last game is scored."""
    if now < tournament.ends_at:
        return bool(_pair_waiting(tournament))
    if not tournament.pairings.filter(scored_at__isnull=True).exists():
        _finish(tournament)
        return True
    return False


@transaction.atomic
def tournament_advance(*, tournament_id: int) -> Tournament:
    """Bring a tournament up to date: start it when due, score ended games, pair what is next.

    Safe to run any number of times, from any process, at once: the tournament row
    is locked, and every step looks at the stored state before acting.
    """
    tournament = _locked(tournament_id)
    now = timezone.now()
    changed = False
    if tournament.status == Tournament.Status.UPCOMING and tournament.starts_at <= now:
        _start(tournament)
        changed = True
    if tournament.status != Tournament.Status.RUNNING:
        if changed:
            _changed(tournament)
        return tournament
    pending = tournament.pairings.filter(scored_at__isnull=True, game__isnull=False)
    for pairing in pending.select_related("game").prefetch_related("players__entry"):
        changed |= _score_game(tournament, pairing)
    if tournament.format_rules.has_rounds:
        changed |= _advance_rounds(tournament)
    else:
        changed |= _advance_without_rounds(tournament, now)
    if changed:
        _changed(tournament)
    return tournament


def tournament_settings_clean(fields: dict) -> dict:
    """The cleaned settings of a new event (as ``tournament_create`` takes them), or
    ``ValidationError`` naming each bad one; the schedule judges its entries with it."""
    return _validate(fields)
