"""Every board speaks the notation: a-e / 1-5 (Topiary) and a-d / 1-4 (Wizards' Garden) along
the edges of the game, replay, puzzle, lesson and rules boards, in both themes, switchable in
the settings (issue 41). Screenshots of every board at 360, 390 and 1280 px go to the test
run's temp dir for a person to look at.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Preferences
from tests.games.conftest import live_game
from tests.puzzles.conftest import WEDNESDAY
from tests.ratings.played import make_user, play_game
from tests.support.browser import in_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOPIARY = ["a", "b", "c", "d", "e", "1", "2", "3", "4", "5"]
WIZARDS = ["a", "b", "c", "d", "1", "2", "3", "4"]
SIZES = {"360": (360, 740), "390": (390, 844), "1280": (1280, 800)}


def coordinates(page, board: str) -> list[str]:
    drawn = page.locator(board).first
    drawn.locator(".tile, .bed-cell").first.wait_for(state="attached")
    return drawn.locator(".coordinates text").all_text_contents()


def boards(page, base: str, ids: dict) -> dict[str, list[str]]:
    """The coordinates drawn on each board the site has, by page."""
    from puzzles import services as puzzle_services

    puzzle_services.daily_puzzle_get_or_create(date=WEDNESDAY)
    pages = {
        "game-topiary": (f"/game/{ids['topiary']}/", "#board"),
        "game-wizards": (f"/game/{ids['wizards']}/", "#board"),
        "replay-topiary": (f"/games/{ids['finished']}/replay/", "#replay-board svg"),
        "replay-wizards": (f"/games/{ids['finished_wizards']}/replay/", "#replay-board svg"),
        "puzzle": (f"/puzzles/{WEDNESDAY.isoformat()}/", "#puzzle-board svg"),
        "lesson-topiary": ("/learn/topiary/", "#lesson-board"),
        "lesson-wizards": ("/learn/wizards-garden/", "#lesson-board"),
        "rules-topiary": ("/rules/topiary/", ".figure-board"),
        "rules-wizards": ("/rules/wizards-garden/", ".figure-board"),
    }
    found = {}
    for name, (path, board) in pages.items():
        page.goto(base + path)
        found[name] = coordinates(page, board)
    return found


def test_coordinates_on_every_board_in_both_themes_and_off_in_the_settings(
    browser, asgi_server, tmp_path
):
    ann, bob = make_user("ann"), make_user("bob")
    finished = in_thread(lambda: play_game([ann, bob], kind="topiary"))
    finished_wizards = in_thread(lambda: play_game([ann, bob], kind="wizards_garden"))
    ids = {
        "topiary": live_game([ann, bob], first_player=0).pk,
        "wizards": live_game([ann, bob], kind="wizards_garden", first_player=0).pk,
        "finished": finished.pk,
        "finished_wizards": finished_wizards.pk,
    }
    client = Client()
    client.force_login(ann)
    shots = tmp_path / "coordinates"
    shots.mkdir()
    for theme in ("light", "dark"):
        for size, (width, height) in SIZES.items():
            context = browser.new_context(
                viewport={"width": width, "height": height},
                color_scheme=theme,
                has_touch=width < 500,
            )
            context.add_cookies(
                [
                    {
                        "name": "sessionid",
                        "value": client.cookies["sessionid"].value,
                        "url": asgi_server,
                    }
                ]
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            found = boards(page, asgi_server, ids)
            for name, labels in found.items():
                wanted = WIZARDS if "wizards" in name else TOPIARY
                assert sorted(labels) == sorted(wanted), (theme, size, name, labels)
            if theme == "light" or size == "390":
                for path, name in (
                    (f"/game/{ids['topiary']}/", "game"),
                    ("/learn/wizards-garden/", "lesson-wizards"),
                ):
                    page.goto(asgi_server + path)
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(shots / f"{theme}-{size}-{name}.png"))
            context.close()

    # Switched off in the settings: no board draws them.
    page = browser.new_context().new_page()
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": asgi_server}]
    )
    page.goto(f"{asgi_server}/account/settings/")
    page.get_by_label("Board coordinates (a-e and 1-5 along the edges)").uncheck()
    page.get_by_label("Board animations").select_option("none")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    prefs = Preferences.objects.get(user=ann)
    assert (prefs.coordinates, prefs.animation) == (False, "none")
    assert all(labels == [] for labels in boards(page, asgi_server, ids).values())
    page.context.close()

    # A visitor's choice is kept in the browser, and the boards follow it too.
    page = browser.new_context().new_page()
    page.goto(f"{asgi_server}/account/settings/")
    page.get_by_label("Board coordinates (a-e and 1-5 along the edges)").uncheck()
    page.get_by_role("button", name="Save").click()
    page.locator("[data-prefs-status]").get_by_text("Saved in this browser.").wait_for()
    page.goto(f"{asgi_server}/learn/topiary/")
    assert coordinates(page, "#lesson-board") == []
    assert page.evaluate("document.body.dataset.coordinates") == "0"
    page.context.close()
    print(f"coordinates screenshots in {shots}")
