"""Seating bots: tables created at the same moment each get their own numbered bots."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.models import Game
from tests.support.players import create_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = 4


def test_bot_tables_created_at_once_all_start(postgres_url, redis_url):
    players = [create_player(f"seater{i}", f"seater{i}@example.com") for i in range(TABLES)]
    start = threading.Barrier(TABLES)
    made, errors = [], []

    def create(user):
        try:
            start.wait()
            game = services.bot_game_create(
                user=user,
                kind="topiary",
                level="greedy",
                players=4,
                clock_initial=None,
                clock_increment=None,
                correspondence_days=3,
            )
            made.append(game.pk)
        except Exception as error:  # reported below with the others' results
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(user,)) for user in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(made) == TABLES
    for game in Game.objects.filter(pk__in=made):
        bots = [seat.user for seat in game.seats.select_related("user") if seat.user.is_bot]
        assert len(bots) == 3 and len({bot.pk for bot in bots}) == 3
        assert game.status == Game.Status.ACTIVE
