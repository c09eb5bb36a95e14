"""A finished game's replay in Chromium: stepping with the buttons and the arrow keys."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.history_selectors import replay_frames
from tests.ratings.played import make_user, play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_game(kind: str):
    """A finished game between ann and bob, played in a thread of its own.

    Playwright keeps an event loop running in the test's thread, where the
    games services' channel-layer sends (async_to_sync) may not run.
    """

    def play():
        try:
            return play_game([make_user("ann"), make_user("bob")], kind=kind)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


def ply_shown(page) -> str:
    return page.locator("#replay-ply").inner_text()


def test_stepping_through_a_finished_topiary_game(page, asgi_server):
    game = finished_game("topiary")
    last = game.ply
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    assert ply_shown(page).startswith(f"Ply 0 of {last}")
    # The deal: 25 tiles, the centre face up, no visitor yet, every hand revealed.
    assert page.locator("svg.garden g.tile").count() == 25
    assert page.locator("svg.garden g.visitor").count() == 0
    hands = page.locator(".replay-hands li")
    for seat, hand in enumerate(game.initial["hands"]):
        assert " ".join(hand) in hands.nth(seat).inner_text()
    assert page.locator('[data-step="back"]').is_disabled()

    page.get_by_role("button", name="Next ply").click()
    first = game.moves[0]["move"]
    mover = ["ann", "bob"][game.moves[0]["seat"]]
    assert ply_shown(page).startswith(f"Ply 1 of {last} · {mover}: {first}")
    assert page.locator("svg.garden g.visitor").count() == 1
    # The visitor just placed shows its sight line and what it sees.
    position = first.split(" ")[0]
    assert page.locator(f'#replay-visitors li.selected[data-position="{position}"]').count() == 1
    (placed,) = replay_frames(game.record)["frames"][1]["visitors"]
    beside = page.locator("svg.garden g.visitor.selected .visitor-points")
    assert beside.text_content() == str(placed["points"])

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert ply_shown(page).startswith(f"Ply 3 of {last}")
    assert page.locator("svg.garden g.visitor").count() == 3
    page.keyboard.press("ArrowLeft")
    assert ply_shown(page).startswith(f"Ply 2 of {last}")
    page.get_by_role("button", name="Back one ply").click()
    assert ply_shown(page).startswith(f"Ply 1 of {last}")

    page.keyboard.press("End")
    assert ply_shown(page).startswith(f"Ply {last} of {last}")
    assert page.locator('[data-step="next"]').is_disabled()
    assert page.locator("svg.garden g.visitor").count() == 16
    totals = page.locator("#replay-score tbody tr td:last-child").all_inner_texts()
    assert totals == [str(entry["total"]) for entry in game.record["scores"]]

    page.get_by_role("button", name="First position").click()
    assert ply_shown(page).startswith(f"Ply 0 of {last}")
    page.locator("#replay-moves button").nth(4).click()
    assert ply_shown(page).startswith(f"Ply 5 of {last}")


def test_stepping_through_a_wizards_garden_game(page, asgi_server):
    game = finished_game("wizards_garden")
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    assert page.locator("svg.wizards-board g[data-cell]").count() == 16
    assert page.locator("svg.wizards-board circle").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator("svg.wizards-board circle").count() == 1
    page.keyboard.press("End")
    assert ply_shown(page).startswith(f"Ply {game.ply} of {game.ply}")
    seeds = sum(cell != "." for row in game.state["board"] for cell in row)
    assert page.locator("svg.wizards-board circle").count() == seeds
