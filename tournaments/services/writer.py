"""The one way into a running event: its row locked, and watchers told after the commit.

Every write in this package takes the tournament row with ``_locked`` first and ends
with ``_changed``, so a beat tick, a finished game and a restarted worker never
apply one change twice.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games import live
from tournaments.models import Entry, Tournament


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


def _creator_only(tournament: Tournament, by, refusal: str) -> None:
    if by is None or not by.is_authenticated or tournament.created_by_id != by.pk:
        raise ValidationError(refusal)


def _active_entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"))
