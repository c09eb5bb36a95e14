"""In Chromium: the countdown to a tournament's start runs on the server's clock, and the
creator starts the event early from the page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.support.browser import signed_in
from tests.tournaments.conftest import make_tournament, new_bot, new_player
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_countdown_ignores_a_wrong_clock_and_start_now_starts_it(browser, asgi_server):
    creator = new_player()
    tournament = make_tournament(
        creator,
        name="Early Swiss",
        rounds=1,
        starts_at=datetime.now(UTC) + timedelta(minutes=10),
    )
    services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=new_bot())
    context, page = signed_in(browser, asgi_server, creator)
    try:
        # The visitor's computer is an hour fast: the countdown must not say "starting now".
        page.clock.install(time=datetime.now(UTC) + timedelta(hours=1))
        page.goto(f"{asgi_server}/tournaments/{tournament.pk}/")
        left = page.locator("#tournament-countdown .countdown-left")
        expect(left).to_have_text(re.compile(r"^(9|10):[0-5]\d$"))
        first = left.text_content()
        expect(left).not_to_have_text(first, timeout=5_000)
        expect(left).to_have_text(re.compile(r"^9:[0-5]\d$"))

        # One player is not enough to start early; a second one is.
        start = page.get_by_role("button", name="Start now")
        expect(start).to_be_disabled()
        expect(page.get_by_text("Starting early needs 2 players.")).to_be_visible()
        services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=new_bot())
        page.reload()
        page.get_by_role("button", name="Start now").click()
        expect(page.get_by_text("The tournament has started.")).to_be_visible()
        expect(page.locator("#tournament-status")).to_have_text("Running")
        expect(page.locator("a.game-link")).to_have_count(1)
        expect(page.locator("#tournament-countdown")).to_have_count(0)
    finally:
        context.close()
