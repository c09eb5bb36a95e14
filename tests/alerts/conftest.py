"""Helpers for the alerts tests: players, a push service stand-in, tasks run at once."""

from __future__ import annotations

import itertools

import pytest

from accounts.models import User
from alerts.models import AlertSettings, PushSubscription
from games import services as game_services
from games.models import Game
from tests.games.conftest import first_legal
from tests.support.players import create_player
from tests.support.push_service import Browser, PushService

_names = itertools.count(1)


@pytest.fixture
def make_player(db):
    """A new human player with a unique name and an address."""

    def make(name: str | None = None) -> User:
        name = name or f"alertee{next(_names)}"
        return create_player(name, f"{name}@example.com")

    return make


@pytest.fixture(scope="module")
def push_service():
    service = PushService()
    yield service
    service.stop()


def subscribe(user, browser: Browser) -> PushSubscription:
    """``browser`` subscribed for ``user``, as the settings page would keep it."""
    return PushSubscription.objects.create(
        user=user, endpoint=browser.endpoint, label="Test browser", **browser.keys
    )


@pytest.fixture
def tasks_at_once():
    """Tasks run in the test's own process as they are queued (no broker, no worker)."""
    from topiary_site.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def whole_turn(game: Game, user) -> Game:
    """``user`` plays moves until the turn passes (a Topiary take is two plies)."""
    game.refresh_from_db()
    seat = game.seats.get(user=user).index
    while game.status == Game.Status.ACTIVE and game.engine_state().to_move == seat:
        ply, move = first_legal(game, user)
        game_services.move_play(game_id=game.pk, user=user, ply=ply, move=move)
        game.refresh_from_db()
    return game


def email_turns(user, choice: str = "each", **more) -> None:
    """Turn ``user``'s turn e-mails to ``choice`` (and any other e-mail setting given)."""
    AlertSettings.objects.update_or_create(user=user, defaults={"email_turns": choice, **more})
