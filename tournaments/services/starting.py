"""Starting an event: at its time (or cancelled for want of players), or early by its creator."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.selectors import rating_values
from tournaments.models import Tournament, not_enough_players
from tournaments.selectors import players_needed
from tournaments.services.pairings import _open_rounds, _pair_waiting
from tournaments.services.writer import (
    _active_entries,
    _changed,
    _creator_only,
    _locked,
    _not_upcoming,
)
from tournaments.signals import tournament_started


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
