"""Games' rows as models: ``RowWrites.write`` stores what ``save(update_fields=...)`` would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError
from django.utils import timezone

from games.models import Game, Seat
from games.services import MOVE_FIELDS
from tests.games.conftest import live_game

pytestmark = pytest.mark.django_db


def test_a_write_stores_the_fields_it_names_as_a_save_would(make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    version = Game.objects.get(pk=game.pk).version
    game.moves = [{"seat": 0, "move": "keep", "took": None}]
    game.ply = 1
    game.takeback_offer = None
    game.deadline = timezone.now() + timedelta(minutes=5)
    game.bot_to_move = True
    game.termination = "not named, so not written"
    game.write(MOVE_FIELDS)

    stored = Game.objects.get(pk=game.pk)
    assert stored.moves == game.moves and stored.ply == 1 and stored.bot_to_move is True
    assert stored.state == game.state
    assert stored.deadline == game.deadline
    assert stored.termination == ""
    # The row's version moved on, in the database and in the object alike.
    assert stored.version == game.version == version + 1

    seat = Seat.objects.get(game=game, index=1)
    seat.clock_ms, seat.last_seen = 1234, None
    seat.write(["clock_ms", "last_seen"])
    seat.refresh_from_db()
    assert (seat.clock_ms, seat.last_seen) == (1234, None)


def test_a_write_of_a_row_that_is_gone_fails_loudly(make_player):
    game = live_game([make_player(), make_player()], first_player=0)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        game.write(["ply"])
