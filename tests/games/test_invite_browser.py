"""An invite link in Chromium: the creator of a table left out of the lobby copies its
link; a second browser, signed out, follows it, signs in, comes back and takes a seat;
the creator fills the last seat with a bot and the game starts in both browsers; the
link then no longer works."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.support.browser import signed_in
from tests.support.players import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]


def test_an_invite_link_seats_a_second_browser_and_expires_when_the_game_starts(
    browser, asgi_server, make_player
):
    ann, bob = make_player(), make_player()
    ann_context, ann_page = signed_in(browser, asgi_server, ann)
    ann_page.goto(f"{asgi_server}/play/")
    form = ann_page.locator("#new-table-title ~ form")
    form.locator("select[name=kind]").select_option("topiary")
    form.locator("select[name=players]").select_option("3")
    form.locator("select[name=time_control]").select_option("3d")
    form.get_by_label("Invite link only").check()
    form.get_by_role("button", name="Create table").click()
    ann_page.wait_for_url("**/game/*/")
    link = ann_page.locator("#invite-url").input_value()
    table = Game.objects.get()
    assert table.unlisted and "/play/invite/" in link
    # Not in the lobby for anyone else.
    assert f"/game/{table.pk}/" not in bob_lobby(browser, asgi_server, bob)

    bob_context = browser.new_context(viewport={"width": 390, "height": 800})
    bob_page = bob_context.new_page()
    bob_page.set_default_timeout(15_000)
    bob_page.goto(link)
    bob_page.locator("input[name=username]").fill(bob.username)
    bob_page.locator("input[name=password]").fill(PASSWORD)
    bob_page.get_by_role("button", name="Log in").click()
    bob_page.wait_for_url("**/play/invite/**")
    assert f"{ann.username} invites you" in bob_page.locator("h2").text_content()
    bob_page.get_by_role("button", name="Take a seat").click()
    bob_page.wait_for_url(f"**/game/{table.pk}/")
    assert [seat.user_id for seat in table.seats.order_by("index")] == [ann.pk, bob.pk, None]

    ann_page.reload()
    ann_page.get_by_role("button", name="Start with bots").click()
    for page in (ann_page, bob_page):
        page.locator("#players .player-row").nth(2).wait_for()
        assert page.locator("#game").is_visible()
        names = page.locator("#players .name").all_text_contents()
        assert ann.username in names[0] and bob.username in names[1] and "BOT" in names[2]
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE and table.invite_hash is None

    # Started: the link is spent, for a newcomer and for bob alike.
    answer = bob_page.goto(link)
    assert answer.status == 410
    assert "no longer works" in bob_page.locator("[role=alert]").text_content()
    for context in (ann_context, bob_context):
        context.close()


def bob_lobby(browser, base_url, user) -> str:
    context, page = signed_in(browser, base_url, user)
    page.goto(f"{base_url}/play/")
    html = page.content()
    context.close()
    return html
