"""A whole game of each kind with the keyboard alone (issue 41): Tab to a target, Enter to
choose, Esc to step back; a screen reader hears each choice (the chooser) and each of the
opponent's moves (an aria-live region)."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.games.pages import PATIENCE, shown_ply, status, wait_for_status, wait_past_ply
from tests.support.browser import signed_in
from tests.support.tables import CORRESPONDENCE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_to(page, selector: str, limit: int = 400) -> str:
    """Press Tab until the focus is on ``selector``; returns what the focus is on."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        found = page.evaluate(
            "(selector) => { const el = document.activeElement;"
            " return el && el.matches(selector) ? (el.dataset.position || el.dataset.cell"
            " || el.dataset.tile || el.id || el.textContent) : null; }",
            selector,
        )
        if found is not None:
            return found
    raise AssertionError(f"Tab never reached {selector}")


def bot_game(human, kind: str) -> Game:
    return services.bot_game_create(
        user=human,
        kind=kind,
        level="random",
        **CORRESPONDENCE,
    )


def heard(page) -> str:
    return page.locator('[data-announce="moves"]').text_content() or ""


def test_a_whole_topiary_game_with_the_keyboard_alone(
    browser, asgi_server, celery_worker, make_player
):
    human = make_player()
    game = bot_game(human, "topiary")
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    board = page.locator("#board")
    turns = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        if turns:
            assert heard(page).startswith(f"{game.seats.get(index=1).user.username} played ")
        ply = shown_ply(page)
        assert board.get_attribute("data-picking") == "direct"
        position = tab_to(page, "#board .target[role=button]")
        page.keyboard.press("Enter")
        assert board.locator(".target.chosen").get_attribute("data-position") == position
        # Esc steps back: nothing is chosen; Enter on the same position chooses it again.
        page.keyboard.press("Escape")
        assert not board.locator(".target.chosen").count()
        tab_to(page, f'#board .target[data-position="{position}"]')
        page.keyboard.press("Enter")
        prompt = page.locator("#prompt").text_content()
        assert f"A visitor at {position} would see" in prompt
        took = board.locator(".tile.takeable").count() > 0
        if took:
            cell = tab_to(page, "#board .tile.takeable")
            page.keyboard.press("Enter")
            assert board.locator(".tile.chosen").get_attribute("data-cell") == cell
        else:
            tab_to(page, "#options button")
            page.keyboard.press("Enter")
        tab_to(page, "#confirm")
        page.keyboard.press("Enter")
        if took:
            page.locator("#hand-tiles .hand-tile.taken").wait_for(timeout=PATIENCE * 1000)
            tab_to(page, "#hand-tiles .hand-tile.offered")
            page.keyboard.press("Enter")
            tab_to(page, "#confirm")
            page.keyboard.press("Enter")
        wait_past_ply(page, ply + (1 if took else 0))
        turns += 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    assert turns == 8
    context.close()


def test_a_whole_wizards_garden_game_with_the_keyboard_alone(
    browser, asgi_server, celery_worker, make_player
):
    human = make_player()
    game = bot_game(human, "wizards_garden")
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    turns = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        if turns:
            assert heard(page).startswith(f"{game.seats.get(index=1).user.username} played ")
        played = page.locator("#moves li").count()
        cell = tab_to(page, "#board .bed-cell[role=button]")
        page.keyboard.press("Enter")
        assert page.locator("#board .bed.chosen").count() == 1
        assert cell in page.locator("#prompt").text_content()
        page.keyboard.press("Escape")
        assert page.locator("#board .bed.chosen").count() == 0
        tab_to(page, f'#board .bed-cell[data-cell="{cell}"]')
        page.keyboard.press("Enter")
        tab_to(page, "#options button")
        page.keyboard.press("Enter")
        tab_to(page, "#confirm")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('#moves li').length > {played}", timeout=PATIENCE * 1000
        )
        turns += 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    assert turns == sum(entry["seat"] == 0 for entry in game.moves)
    context.close()
