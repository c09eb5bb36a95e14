"""Issue 16: a house bot never answers an outside bot's challenge faster than a person is
answered. The challenge waits open; the real Celery worker seats the house bot after
``HOUSE_BOT_ANSWER_DELAY`` seconds and the bot plays."""

from __future__ import annotations

import time

import pytest

from accounts.services import bot_ensure
from api import services as api_services
from games import services as game_services
from games.models import Game
from tests.support.tables import CORRESPONDENCE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.celery,
    pytest.mark.slow,
]


def test_the_house_bot_accepts_an_outside_bots_challenge_later(
    celery_worker, make_player, settings
):
    settings.HOUSE_BOT_ANSWER_DELAY = 1  # the countdown is set where the challenge is made
    outside = api_services.bot_account_upgrade(user=make_player())
    house = bot_ensure(level="random")
    game = game_services.challenge_create(
        user=outside,
        opponent_username=house.username,
        kind="wizards_garden",
        rated=False,
        **CORRESPONDENCE,
    )
    assert game.status == Game.Status.OPEN
    assert not game.seats.filter(user=house).exists()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            break
        time.sleep(0.3)
    assert game.status == Game.Status.ACTIVE
    assert {seat.user_id for seat in game.seats.all()} == {outside.pk, house.pk}
