"""What tournaments do when an account closes (``accounts.hooks``)."""

from __future__ import annotations

import contextlib

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments import services
from tournaments.models import Tournament


def account_closing(sender, user, **kwargs) -> None:
    """Withdraw the player from every upcoming or running tournament."""
    entered = user.tournament_entries.filter(
        withdrawn_at__isnull=True,
        tournament__status__in=[Tournament.Status.UPCOMING, Tournament.Status.RUNNING],
    )
    for tournament_id in list(entered.values_list("tournament_id", flat=True)):
        with contextlib.suppress(ValidationError), transaction.atomic():
            services.tournament_withdraw(tournament_id=tournament_id, user=user)
