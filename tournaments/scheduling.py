"""The schedule of recurring events: when each entry's next events start, and the beat
job that creates them ahead of time.

Every time is UTC. Each entry's events are created under its row lock, with
``INSERT ... ON CONFLICT DO NOTHING`` against the unique (schedule entry, start)
constraint, so two beats (or a beat and a retried task) running at once create each
event exactly once. The created events are
ordinary upcoming tournaments: beat's ``tournaments-tick`` starts them on time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import bot_ensure
from tournaments.models import Entry, ScheduleEntry, Tournament
from tournaments.services import MAX_DAYS_AHEAD, tournament_settings_clean

log = logging.getLogger(__name__)

Cadence = ScheduleEntry.Cadence

#: The most a schedule entry may create ahead: the create form's own limit.
MOST_HOURS_AHEAD = MAX_DAYS_AHEAD * 24


def _next_month(moment: datetime) -> datetime:
    year, month = divmod(moment.year * 12 + moment.month, 12)
    return moment.replace(year=year, month=month + 1)


def _first_after(entry: ScheduleEntry, after: datetime) -> datetime:
    """The entry's first start strictly after ``after`` (UTC)."""
    at = after.astimezone(UTC).replace(second=0, microsecond=0, minute=entry.minute)
    if entry.cadence == Cadence.HOURLY:
        return at if at > after else at + timedelta(hours=1)
    at = at.replace(hour=entry.hour)
    if entry.cadence == Cadence.DAILY:
        return at if at > after else at + timedelta(days=1)
    if entry.cadence == Cadence.WEEKLY:
        at += timedelta(days=(entry.weekday - at.weekday()) % 7)
        return at if at > after else at + timedelta(days=7)
    at = at.replace(day=entry.day)
    return at if at > after else _next_month(at)


def _step(entry: ScheduleEntry, at: datetime) -> datetime:
    if entry.cadence == Cadence.HOURLY:
        return at + timedelta(hours=1)
    if entry.cadence == Cadence.DAILY:
        return at + timedelta(days=1)
    if entry.cadence == Cadence.WEEKLY:
        return at + timedelta(days=7)
    return _next_month(at)


def occurrences(entry: ScheduleEntry, after: datetime, until: datetime) -> Iterator[datetime]:
    """The entry's starts in (``after``, ``until``], earliest first, in UTC."""
    at = _first_after(entry, after)
    while at <= until:
        yield at
        at = _step(entry, at)


def _settings(entry: ScheduleEntry, starts_at: datetime) -> dict:
    return {
        "name": entry.name,
        "kind": entry.kind,
        "format": entry.format,
        "table_size": entry.table_size,
        "rounds": entry.rounds,
        "duration_minutes": entry.duration_minutes,
        "clock_initial": entry.clock_initial,
        "clock_increment": entry.clock_increment,
        "max_players": entry.max_players,
        "starts_at": starts_at,
        "place_points": None,
    }


def schedule_entry_check(entry: ScheduleEntry) -> None:
    """``ValidationError`` naming each field of an entry that could not make an event."""
    errors: dict[str, str] = {}
    if not 0 <= entry.minute <= 59:
        errors["minute"] = _("A minute is 0 to 59.")
    if not 0 <= entry.hour <= 23:
        errors["hour"] = _("An hour is 0 to 23.")
    if not 0 <= entry.weekday <= 6:
        errors["weekday"] = _("A weekday is 0 (Monday) to 6 (Sunday).")
    if not 1 <= entry.day <= 28:
        errors["day"] = _("The day of the month is 1 to 28, so that every month has it.")
    if not 1 <= (entry.create_ahead_hours or 0) <= MOST_HOURS_AHEAD:
        errors["create_ahead_hours"] = _("Create events 1 to %(most)s hours ahead.") % {
            "most": MOST_HOURS_AHEAD
        }
    levels = list(entry.house_bots or [])
    if levels and not entry.bots_allowed:
        errors["house_bots"] = _("House bots join only events that allow bots.")
    elif any(level not in User.BotLevel.values for level in levels) or len(set(levels)) < len(
        levels
    ):
        errors["house_bots"] = _("House bots are each of random, greedy and strong at most once.")
    try:
        tournament_settings_clean(_settings(entry, timezone.now() + timedelta(hours=1)))
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            errors.setdefault(field if field != "starts_at" else "hour", " ".join(messages))
    if errors:
        raise ValidationError(errors)


def _event(entry: ScheduleEntry, starts_at: datetime) -> Tournament:
    cleaned = tournament_settings_clean(_settings(entry, starts_at))
    return Tournament(
        **cleaned,
        created_by=None,
        rated=entry.rated,
        bots_allowed=entry.bots_allowed,
        people_only=entry.people_only,
        schedule_entry=entry,
    )


def _house_bots(entry: ScheduleEntry) -> list[User]:
    """The house bots an entry enters in its new events (none where bots are not allowed)."""
    if not entry.bots_allowed:
        return []
    return [bot_ensure(level=level) for level in entry.house_bots]


def schedule_run(*, now: datetime | None = None) -> int:
    """Create every active entry's events that start within its "ahead" window and do
    not exist yet, with the entry's house bots entered; returns how many this call
    created. Safe to run at once from anywhere: the unique (entry, start) constraint
    makes a second insert of an event do nothing, and only the call that created an
    event enters its bots (so a bot taken out is not put back)."""
    now = now or timezone.now()
    created = 0
    for entry in ScheduleEntry.objects.filter(active=True).order_by("pk"):
        until = now + timedelta(hours=entry.create_ahead_hours)
        starts = list(occurrences(entry, now, until))
        if not starts:
            continue
        try:
            events = [_event(entry, starts_at) for starts_at in starts]
            bots = _house_bots(entry)
        except (ValidationError, ValueError) as error:
            # An entry saved around the admin's checks: skip it, keep the others going.
            log.warning("schedule entry %s makes no events: %s", entry.pk, error)
            continue
        with transaction.atomic():
            # The entry's row lock makes a second beat wait, then find the events made;
            # the unique constraint is the guard should anything get past it.
            ScheduleEntry.objects.select_for_update().filter(pk=entry.pk).first()
            made = Tournament.objects.filter(schedule_entry=entry, starts_at__in=starts)
            before = set(made.values_list("pk", flat=True))
            Tournament.objects.bulk_create(events, ignore_conflicts=True)
            new = [pk for pk in made.values_list("pk", flat=True) if pk not in before]
            Entry.objects.bulk_create(
                [Entry(tournament_id=pk, user=bot) for pk in new for bot in bots],
                ignore_conflicts=True,
            )
        created += len(new)
    if created:
        log.info("schedule: %s events created", created)
    return created
