"""At the end of an arena game the page goes on to the player's next pairing (Chromium).

The real stack: the ASGI server serves the pages and the game's socket, the real Celery
worker runs the ``tournament_advance`` that the finished game's signal queues, and the
game page's script follows the event's "next game" answer, as lichess's arena does.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import in_thread, signed_in
from tests.tournaments.conftest import make_tournament, new_bot, new_player
from tournaments import selectors, services
from tournaments.models import Pairing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.celery,
    pytest.mark.slow,
]


def test_an_arena_game_links_back_and_goes_on_to_the_next_game(browser, asgi_server, celery_worker):
    alice = new_player()
    tournament = make_tournament(
        alice,
        name="Quick arena",
        format="arena",
        rounds=None,
        duration_minutes=30,
        clock_initial=30,
        clock_increment=1,
    )
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_enter_bot(tournament_id=tournament.pk, by=alice, bot=new_bot())
    services.tournament_start_early(tournament_id=tournament.pk, by=alice)
    first = selectors.current_game_of(tournament, alice)
    assert first is not None

    context, page = signed_in(browser, asgi_server, alice)
    try:
        page.goto(f"{asgi_server}/game/{first}/")
        expect(page.locator(".page-header")).to_contain_text("½+1")
        back = page.locator("#tournament-game-link a")
        expect(back).to_have_text("Quick arena")
        assert back.get_attribute("href") == f"/tournaments/{tournament.pk}/"

        page.get_by_role("button", name="Resign").click()
        page.get_by_role("button", name="Yes, resign").click()
        # The result shows, with the way back to the event...
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#tournament-back")).to_have_attribute(
            "href", f"/tournaments/{tournament.pk}/"
        )
        # ...and the worker pairs alice again: the page goes there by itself.
        expect(page).not_to_have_url(re.compile(rf"/game/{first}/$"), timeout=60_000)
        second = in_thread(lambda: selectors.current_game_of(tournament, alice))
        assert second not in (None, first)
        expect(page).to_have_url(f"{asgi_server}/game/{second}/")
        assert in_thread(lambda: Pairing.objects.filter(tournament=tournament).count()) == 2
    finally:
        context.close()
