"""Quick pairing and alerts in Chromium, against the real ASGI server and Redis: two
players pair through the lobby's grid and land in the same game; the turn coming changes
the title, chimes and notifies (recorded by an init script); a challenge reaches a player
on a page that is not the lobby, and the sound preference silences the chime."""

from __future__ import annotations

import re

import pytest

from accounts.models import Preferences
from games import selectors, services
from games.models import Game
from tests.games.conftest import challenge, first_legal
from tests.support.browser import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]

#: Records what the alerts do: notifications made, chimes started. The page is never in
#: front here (hasFocus false), as when the player is in another tab.
RECORDER = """
window.__alerts = { notes: [], chimes: 0 };
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) {
    window.__alerts.notes.push({ title, body: options && options.body });
    super(title, options);
  }
  static get permission() { return RealNotification.permission; }
  static requestPermission() { return RealNotification.requestPermission(); }
};
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__alerts.chimes += 1; return super.createOscillator(); }
};
document.hasFocus = () => false;
"""

GAME_URL = re.compile(r".*/game/(\d+)/$")


def player_page(browser, base_url, user):
    context, page = signed_in(browser, base_url, user)
    context.grant_permissions(["notifications"], origin=base_url)
    context.add_init_script(RECORDER)
    return context, page


def alerts(page) -> dict:
    return page.evaluate("window.__alerts")


def cell(page, players=2, time_control="3+2"):
    return page.locator(
        f'button.quick-cell[data-kind="topiary"][data-players="{players}"]'
        f'[data-time-control="{time_control}"]'
    )


def test_two_players_pair_through_the_grid_and_the_turn_alerts(browser, asgi_server, make_player):
    ann, bob = make_player(), make_player()
    contexts = []
    pages = {}
    for user in (ann, bob):
        context, page = player_page(browser, asgi_server, user)
        contexts.append(context)
        page.goto(f"{asgi_server}/play/")
        page.wait_for_selector("body[data-live=open]")
        pages[user] = page

    cell(pages[ann]).click()
    pages[ann].wait_for_selector('button.quick-cell[aria-pressed="true"]')
    assert "Seeking Topiary" in pages[ann].locator("#quick-status").text_content()
    # Bob sees someone waiting in that cell, and who, with the rating.
    pages[bob].wait_for_function(
        'document.querySelector(\'button.quick-cell[data-kind=topiary][data-players="2"]'
        "[data-time-control=\"3+2\"] [data-waiting]').textContent === '1 waiting'"
    )
    assert f"{ann.username} (1500?)" in pages[bob].locator("#seeks").text_content()

    cell(pages[bob]).click()
    for page in pages.values():
        page.wait_for_url(GAME_URL)
    game_ids = {GAME_URL.match(page.url).group(1) for page in pages.values()}
    assert len(game_ids) == 1
    game = Game.objects.get(pk=int(game_ids.pop()))
    assert game.status == Game.Status.ACTIVE and game.time_control == "3+2" and game.rated

    to_move = selectors.game_state_for(game.pk, None)["to_move"]
    seated = [seat.user for seat in game.seats.order_by("index")]
    mover, waiter = seated[to_move], seated[1 - to_move]
    # The first mover's page opens on their turn; the other's does not.
    pages[mover].wait_for_function("document.title.includes('Your turn')")
    pages[waiter].wait_for_selector("#game:not([hidden])")
    assert "Your turn" not in pages[waiter].title()
    assert alerts(pages[waiter])["notes"] == []

    ply, move = first_legal(game, mover)
    services.move_play(game_id=game.pk, user=mover, ply=ply, move=move)
    waiter_page = pages[waiter]
    waiter_page.wait_for_function("document.title.includes('Your turn')")
    assert waiter_page.title().startswith("(1) ")
    recorded = alerts(waiter_page)
    assert [note["title"] for note in recorded["notes"]] == ["Your turn"]
    assert recorded["chimes"] > 0
    pages[mover].wait_for_function("!document.title.includes('Your turn')")
    for context in contexts:
        context.close()


def test_a_challenge_reaches_a_player_on_any_page_and_starts_the_game(
    browser, asgi_server, make_player
):
    ann, bob = make_player(), make_player()
    Preferences.objects.create(user=bob, sound=False)
    ann_context, ann_page = player_page(browser, asgi_server, ann)
    bob_context, bob_page = player_page(browser, asgi_server, bob)
    bob_page.goto(f"{asgi_server}/leaderboards/")
    ann_page.goto(f"{asgi_server}/puzzles/")
    bob_page.wait_for_function("document.body.dataset.sound === '0'")

    game = challenge(ann, bob, rated=False)
    note = bob_page.locator(f'.alert-note[data-note="challenge-{game.pk}"]')
    note.wait_for()
    assert f"{ann.username} challenges you" in note.text_content()
    bob_page.wait_for_function("document.title.startsWith('(1) ')")
    recorded = alerts(bob_page)
    assert [n["title"] for n in recorded["notes"]] == ["A challenge"]
    assert recorded["chimes"] == 0  # bob turned sounds off

    note.get_by_role("button", name="Accept").click()
    bob_page.wait_for_url(f"**/game/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    started = ann_page.locator(f'.alert-note[data-note="game-{game.pk}"]')
    started.wait_for()
    assert "Your game has started" in started.text_content()
    assert alerts(ann_page)["chimes"] > 0
    started.get_by_role("link", name="Go to the game").click()
    ann_page.wait_for_url(f"**/game/{game.pk}/")
    ann_context.close()
    bob_context.close()
