"""Entries and withdrawals: players joining, the creator's bots, leaving before or during."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Entry, Tournament
from tournaments.services.writer import _changed, _creator_only, _locked, _not_upcoming


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
