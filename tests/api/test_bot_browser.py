"""A person in Chromium plays a rated Topiary game against the reference bot of docs/API.md,
which runs as an outside BOT account through the API (the real web server, PostgreSQL, Redis)."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Game
from ratings.models import RatingChange
from tests.games.pages import play_topiary_turn, status, wait_for_status
from tests.support.browser import signed_in
from tests.support.streams import finished_and_rated, wait_until
from tests.support.tables import CORRESPONDENCE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.celery,
    pytest.mark.slow,
]


def test_a_person_in_chromium_plays_the_reference_bot_to_a_rated_end(
    browser,
    asgi_server,
    celery_worker,
    outside_bot,
    bot_process,
    make_player,
):
    bot, _ = outside_bot
    person = make_player()
    game = game_services.challenge_create(
        user=person,
        opponent_username=bot.username,
        kind="topiary",
        rated=True,
        **CORRESPONDENCE,
    )
    # The bot hears of the challenge on its event stream and accepts it through the API.
    wait_until(
        lambda: Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE, 60, "the bot to accept"
    )
    context, page = signed_in(browser, asgi_server, person)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    turn = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        play_topiary_turn(page, turn)
        turn += 1
    game = wait_until(lambda: finished_and_rated(game.pk), 120, "the game to be scored")
    assert game.termination == "normal" and turn == 8
    assert RatingChange.objects.filter(game=game, user=bot).exists()
    assert RatingChange.objects.filter(game=game, user=person).exists()
    context.close()
