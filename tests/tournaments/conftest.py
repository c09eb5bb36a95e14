"""Players, bots and tournaments for the tournaments tests."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game
from tests.support.players import create_player
from tournaments import services
from tournaments.models import ScheduleEntry, Tournament

_names = itertools.count(1)


def new_player(name: str | None = None) -> User:
    name = name or f"entrant{next(_names)}"
    return create_player(name, f"{name}@example.com")


def new_bot(level: str = "random") -> User:
    bot = User(username=f"{level}bot{next(_names)}", is_bot=True, bot_level=level)
    bot.set_unusable_password()
    bot.save()
    return bot


@pytest.fixture
def make_player(db):
    return new_player


@pytest.fixture
def make_bot(db):
    return new_bot


def make_tournament(creator: User, **overrides) -> Tournament:
    """A Swiss of Wizards' Garden games starting in a minute (settings overridable)."""
    params = {
        "created_by": creator,
        "name": "Spring Swiss",
        "kind": "wizards_garden",
        "format": "swiss",
        "rounds": 3,
        "clock_initial": 60,
        "clock_increment": 0,
        "rated": False,
        "starts_at": timezone.now() + timedelta(minutes=1),
        "max_players": 8,
    }
    params.update(overrides)
    return services.tournament_create(**params)


def make_due(tournament: Tournament) -> None:
    """Move the start time into the past, as the clock would."""
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1)
    )


def mover_of(game: Game) -> User:
    game.refresh_from_db()
    return game.seats.get(index=game.engine_state().to_move).user


def entry(**overrides) -> ScheduleEntry:
    """An unsaved schedule entry: an hourly Topiary blitz arena unless told otherwise."""
    fields = {
        "name": "Hourly blitz",
        "kind": "topiary",
        "format": "arena",
        "duration_minutes": 30,
        "clock_initial": 180,
        "clock_increment": 2,
        "cadence": "hourly",
        "minute": 0,
        "create_ahead_hours": 3,
    }
    fields.update(overrides)
    return ScheduleEntry(**fields)
