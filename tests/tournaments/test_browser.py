"""A player joins a tournament in Chromium and watches it start without reloading."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import signed_in
from tests.tournaments.conftest import make_due, make_tournament, new_bot, new_player
from tournaments import services
from tournaments.models import Pairing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.celery,
    pytest.mark.slow,
]


def test_a_player_joins_and_sees_the_tournament_start_live(
    browser, asgi_server, celery_worker, celery_beat
):
    creator = new_player()
    tournament = make_tournament(creator, name="Evening Swiss", rounds=1, max_players=4)
    bot = new_bot()
    services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=bot)
    player = new_player()
    context, page = signed_in(browser, asgi_server, player)
    try:
        page.goto(f"{asgi_server}/tournaments/")
        page.get_by_role("link", name="Evening Swiss").click()
        expect(page.locator("#tournament-status")).to_have_text("Upcoming")
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_text("You are in.")).to_be_visible()
        expect(page.locator(f'#standings tr[data-player="{player.username}"]')).to_be_visible()
        expect(page.get_by_role("button", name="Join")).to_have_count(0)

        # The page is not reloaded from here on: a marker set now must survive.
        page.evaluate("window.stillTheSamePage = true")
        make_due(tournament)
        expect(page.locator("#tournament-status")).to_have_text("Running", timeout=60_000)
        game_link = page.locator("a.game-link")
        expect(game_link).to_have_count(1)
        assert page.evaluate("window.stillTheSamePage") is True

        pairing = Pairing.objects.get(tournament=tournament, game__isnull=False)
        assert game_link.get_attribute("href") == f"/game/{pairing.game_id}/"
        assert {s.user_id for s in pairing.game.seats.all()} == {player.pk, bot.pk}
        game_link.click()
        expect(page).to_have_url(f"{asgi_server}/game/{pairing.game_id}/")
    finally:
        context.close()
