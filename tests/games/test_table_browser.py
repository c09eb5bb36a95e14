"""Topiary as at the table, in Chromium: take a tile, see it in the hand, then plant one.

Against the real ASGI server and Celery worker (the bot plays through the worker).
"""

from __future__ import annotations

import re

import pytest

from engine.topiary import TYPE_NAMES
from games.models import Game
from tests.games.conftest import live_game
from tests.games.pages import (
    hand,
    plant_step,
    status,
    take_step,
    wait_for_status,
    wait_past_ply,
)
from tests.support.browser import signed_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.celery,
    pytest.mark.slow,
]


def garden_at(position: dict, cell: str) -> str:
    return position["garden"][5 - int(cell[1])]["abcde".index(cell[0])]


def test_a_topiary_game_against_a_bot_takes_in_two_steps_and_ends_with_the_count(
    browser, asgi_server, celery_worker, make_player
):
    human = make_player()
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/play/")
    form = page.locator("#bots-title ~ form")
    form.locator("select[name=kind]").select_option("topiary")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=level]").select_option("greedy")
    form.locator("select[name=time_control]").select_option("1d")
    form.get_by_role("button", name="Play bots").click()
    page.wait_for_url("**/game/*/")
    game = Game.objects.get()

    # The removed type is public: the page names it from the start.
    removed = game.engine_state().to_json()["removed_type"]
    shown = page.locator("#removed-type")
    assert shown.is_visible() and shown.get_attribute("data-type") == removed
    assert TYPE_NAMES[removed] in shown.text_content()

    takes = plants_of_the_taken = 0
    turn = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        game.refresh_from_db()
        before = game.engine_state().to_json()
        take = take_step(page, turn)
        if take.cell is None:
            wait_for_status([page], lambda text: text != "Your turn")
        else:
            takes += 1
            # Before anything is planted, the tile that lay face down at the cell is in the
            # tray, face up and marked as just taken; the garden shows the gap.
            assert take.took == garden_at(before, take.cell).upper()
            assert take.took not in take.hand_before
            assert sorted(hand(page)) == sorted([*take.hand_before, take.took])
            assert page.locator(f'#board [data-cell="{take.cell}"] .gap').count() == 1
            prompt = page.locator("#prompt").text_content()
            assert prompt.startswith("You took ") and f"at {take.cell}" in prompt
            plant_taken = turn % 3 == 0
            plants_of_the_taken += plant_taken
            planted = page.get_by_role("button", name=re.compile("^Plant ")).count()
            assert planted == 4
            chosen = plant_step(page, take, plant_taken=plant_taken)
            # Planted where chosen: face up in the gap, and the tray is back to three.
            page.locator(f'#board [data-cell="{take.cell}"][data-tile="{chosen}"]').wait_for()
            kept = sorted({*take.hand_before, take.took} - {chosen})
            page.wait_for_function(
                "n => document.querySelectorAll('#hand-tiles .hand-tile').length === n", arg=3
            )
            assert sorted(hand(page)) == kept
            line = page.locator("#moves li", has_text=f"{take.position} {take.cell}=")
            assert line.count() == 1 and not line.text_content().endswith("…")
        turn += 1
    assert takes >= 2 and 0 < plants_of_the_taken < takes

    # The end: the page itself turns everything over and shows the count.
    wait_for_status([page], lambda text: "wins" in text or "share the win" in text)
    game.refresh_from_db()
    final = game.engine_state().to_json()
    count = page.locator("#final-count")
    count.wait_for()
    for index, tiles in enumerate(final["hands"]):
        row = page.locator(f'#players li[data-seat="{index}"] .open-hand svg')
        assert row.evaluate_all("tiles => tiles.map(t => t.dataset.tile)") == tiles
    face_down = [code for row in final["garden"] for code in row if code.islower()]
    assert page.locator("#board .tile-back-known").count() == len(face_down) > 0
    assert page.locator("#board .tile-back").count() == len(face_down)
    for entry in game.result["scores"]:
        total = page.locator(f'#final-totals tr[data-seat="{entry["seat"]}"] td.total')
        assert total.text_content() == str(entry["total"])
    assert page.locator("#final-visitors tr").count() == 16
    assert page.locator("#hand").is_hidden()
    context.close()


def test_the_http_fallback_plays_both_steps_of_a_take(browser, asgi_server, make_player):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    context, page = signed_in(browser, asgi_server, ann)
    # No socket for ann: every move goes over HTTP, and each answer is the new frame.
    page.route_web_socket("**/ws/game/**", lambda socket: socket.close())
    posted = []
    page.on("request", lambda request: request.method == "POST" and posted.append(request.url))
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    take = take_step(page, 0)
    assert take.cell and sorted(hand(page)) == sorted([*take.hand_before, take.took])
    planted = plant_step(page, take, plant_taken=False)
    page.locator(f'#board [data-cell="{take.cell}"][data-tile="{planted}"]').wait_for()
    assert posted == [f"{asgi_server}/game/{game.pk}/move"] * 2
    game.refresh_from_db()
    assert [entry["seat"] for entry in game.moves] == [0, 0]
    wait_past_ply(page, 1)
    assert status(page) == f"{bob.username} to move"
    context.close()


def test_with_must_pick_a_line_with_a_face_down_tile_offers_no_place_only(
    browser, asgi_server, make_player
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0, options={"must_pick": True})
    context, page = signed_in(browser, asgi_server, ann)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    # At the deal only c3 is face up: column a is five face-down tiles, so a take is required.
    page.locator('#board .target[data-position="a1:N"]').click()
    # The prompt says what the position scores now (issue 41), then what the turn asks.
    prompt = "A visitor at a1:N would see 0 now. Take a face-down tile from the line"
    assert page.locator("#prompt").text_content() == prompt
    assert page.locator("#board .tile.takeable").count() == 5
    assert page.get_by_role("button", name="Place only (take nothing)").count() == 0
    context.close()


def test_a_resignation_between_take_and_plant_reveals_the_game_as_before_the_take(
    browser, asgi_server, make_player
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    context, page = signed_in(browser, asgi_server, ann)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    take = take_step(page, 0)
    # Resign asks on the page, not with the browser's dialog (issue 41).
    page.locator("#resign").click()
    page.locator('[data-action="resign-confirm"]').click()
    wait_for_status([page], lambda text: text.startswith("Game over"))
    # The unfinished turn is left out: the tile lies face down where it was, shown by name.
    page.locator("#final-count").wait_for()
    cell = page.locator(f'#board [data-cell="{take.cell}"]')
    assert cell.locator(".gap").count() == 0
    name = f"{TYPE_NAMES[take.took[0]]} {take.took[1]}"
    assert cell.locator(".tile-back-known > title").text_content() == f"Face-down tile: {name}"
    assert page.locator("#board .visitor").count() == 0
    hands = page.locator("#players .open-hand")
    assert [hands.nth(seat).locator("svg").count() for seat in range(2)] == [3, 3]
    context.close()
