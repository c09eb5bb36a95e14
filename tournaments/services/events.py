"""Creating, editing and cancelling an event: its settings judged, the creator's rights."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.errors import NotationError
from engine.games import game_definition
from tournaments.formats import format_for
from tournaments.models import Tournament
from tournaments.services.writer import _changed, _creator_only, _locked, _not_upcoming

Format = Tournament.Format

#: Limits that keep an event playable; anything outside is refused at creation (the
#: limits of rounds, duration and players belong to the formats, ``tournaments.formats``).
CLOCK_SECONDS = (15, 3 * 60 * 60)
MAX_INCREMENT = 60
MAX_DAYS_AHEAD = 90
NAME_LENGTH = 80


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


def tournament_settings_clean(fields: dict) -> dict:
    """The cleaned settings of a new event (as ``tournament_create`` takes them), or
    ``ValidationError`` naming each bad one; the schedule judges its entries with it."""
    return _validate(fields)
