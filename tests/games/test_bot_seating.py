"""Seating bots: tables created at the same moment each get their own numbered bots."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.support.players import create_player
from tests.support.tables import CORRESPONDENCE
from tests.support.threads import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = 4


def test_bot_tables_created_at_once_all_start(postgres_url, redis_url):
    players = [create_player(f"seater{i}", f"seater{i}@example.com") for i in range(TABLES)]

    def create(user):
        return services.bot_game_create(
            user=user,
            kind="topiary",
            level="greedy",
            players=4,
            **CORRESPONDENCE,
        ).pk

    created = at_once(create, players)
    errors = [error for _, error in created if error]
    made = [game_id for game_id, _ in created if game_id is not None]
    assert errors == []
    assert len(made) == TABLES
    for game in Game.objects.filter(pk__in=made):
        bots = [seat.user for seat in game.seats.select_related("user") if seat.user.is_bot]
        assert len(bots) == 3 and len({bot.pk for bot in bots}) == 3
        assert game.status == Game.Status.ACTIVE
