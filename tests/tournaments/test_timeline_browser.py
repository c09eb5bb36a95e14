"""In Chromium in Tokyo: the upcoming events' timeline, a tournament's start and the
create form all speak the viewer's zone (named), while the server keeps UTC."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.support.browser import session_id
from tests.tournaments.conftest import make_tournament, new_player
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

TOKYO = ZoneInfo("Asia/Tokyo")


def day_word(moment: datetime, now: datetime) -> str:
    days = (moment.astimezone(TOKYO).date() - now.astimezone(TOKYO).date()).days
    if days == 0:
        return "tonight" if moment.astimezone(TOKYO).hour >= 18 else "today"
    return {1: "tomorrow"}.get(days, "")


def test_the_timeline_and_the_form_use_the_viewers_zone(browser, asgi_server):
    creator = new_player()
    now = datetime.now(UTC)
    soon = make_tournament(creator, name="Soon Swiss", starts_at=now + timedelta(minutes=12))
    tokyo_tomorrow = (now.astimezone(TOKYO) + timedelta(days=1)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    later = make_tournament(creator, name="Evening Swiss", starts_at=tokyo_tomorrow)

    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="Asia/Tokyo")
    context.add_cookies([{"name": "sessionid", "value": session_id(creator), "url": asgi_server}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{asgi_server}/tournaments/")
        expect(page.locator("#timeline-zone")).to_have_text("Times in Asia/Tokyo, GMT+9.")
        items = page.locator(".timeline-item")
        expect(items).to_have_count(2)
        soon_clock = soon.starts_at.astimezone(TOKYO).strftime("%H:%M")
        expect(items.nth(0).locator("time")).to_have_text(
            re.compile(rf"^in 1[12] min\. · {day_word(soon.starts_at, now)} {soon_clock}$")
        )
        # The UTC time stays at hand, as the title.
        expect(items.nth(0).locator("time")).to_have_attribute(
            "title", soon.starts_at.astimezone(UTC).strftime("%-d %b %H:%M UTC")
        )
        expect(items.nth(1).locator("time")).to_have_text(re.compile(r"tomorrow 20:00$"))

        page.get_by_role("link", name="Evening Swiss").click()
        starts = page.locator("#tournament-live time[data-local]").first
        expect(starts).to_have_text(re.compile(r" 20:00$"))
        expect(page.locator("#tournament-live")).to_contain_text("(Asia/Tokyo, GMT+9)")

        # The form: the start is typed in Tokyo time, the label says so, UTC is stored.
        page.goto(f"{asgi_server}/tournaments/#new-tournament")
        start_field = page.get_by_label("Starts at (your time, Asia/Tokyo, GMT+9):")
        shown = datetime.fromisoformat(start_field.input_value()).replace(tzinfo=TOKYO)
        assert timedelta(minutes=13) < shown - now < timedelta(minutes=17)
        page.locator("#id_name").fill("Typed in Tokyo")
        page.locator("#id_rounds").fill("3")
        start_field.fill(tokyo_tomorrow.replace(hour=21, minute=30).strftime("%Y-%m-%dT%H:%M"))
        page.get_by_role("button", name="Create tournament").click()
        expect(page.get_by_text("Typed in Tokyo is created.")).to_be_visible()
        created = Tournament.objects.get(name="Typed in Tokyo")
        assert created.starts_at == tokyo_tomorrow.replace(hour=21, minute=30).astimezone(UTC)
        expect(page.locator("#tournament-live time[data-local]").first).to_have_text(
            re.compile(r" 21:30$")
        )
        assert later.pk != created.pk

        # Editing shows the stored start in Tokyo time again.
        page.goto(f"{asgi_server}/tournaments/{created.pk}/edit/")
        edit_start = page.get_by_label("Starts at (your time, Asia/Tokyo, GMT+9):")
        expect(edit_start).to_have_value(
            tokyo_tomorrow.replace(hour=21, minute=30).strftime("%Y-%m-%dT%H:%M")
        )
    finally:
        context.close()
