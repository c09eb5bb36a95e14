"""Chromium asks for a finished game's analysis, watches it run, then reads it on the replay."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

from analysis.models import Analysis
from games.history_selectors import replay_frames
from tests.ratings.played import make_user, play_game
from tests.support.browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

#: Milliseconds to wait for the whole analysis on a loaded machine (a deadline, not a measure).
PATIENCE = 300_000


def finished_topiary_game():
    """A finished game between ann and bob, played in a thread of its own (Playwright's loop
    runs in the test's thread, where the services' channel-layer sends may not)."""

    def play():
        try:
            ann, bob = make_user("ann"), make_user("bob")
            return play_game([ann, bob], kind="topiary"), ann
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


def test_a_player_requests_the_analysis_and_sees_progress_chart_and_engine_moves(
    browser, asgi_server, celery_worker, tmp_path_factory
):
    game, ann = finished_topiary_game()
    context, page = signed_in(browser, asgi_server, ann)
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    status = page.locator("#analysis-status")
    expect(status).to_have_text("This game has not been analysed yet.")
    page.get_by_role("button", name="Request analysis").click()

    # While the worker runs: the progress bar and the move being analysed.
    expect(page.locator("#analysis-progress")).to_be_visible()
    expect(status).to_have_text(re.compile(r"Analysing move \d+ of \d+…"), timeout=PATIENCE)
    expect(page.get_by_role("button", name="Request analysis")).to_be_hidden()

    expect(status).to_have_text(re.compile("^Analysed"), timeout=PATIENCE)
    expect(page.locator("#analysis-progress")).to_be_hidden()
    turns = Analysis.objects.get(game=game).result["turns"]
    # The chart: one bar per move, in its mover's colour.
    bars = page.locator("#analysis-chart .analysis-bar")
    expect(bars).to_have_count(len(turns))
    assert [int(bars.nth(i).get_attribute("data-seat")) for i in range(len(turns))] == [
        turn["seat"] for turn in turns
    ]
    # Every decision of the list says what it cost: a take and its plant are two.
    plants = [t for t in range(len(turns)) if "plant" in turns[t]]
    assert plants, "a game of takes"
    expect(page.locator("#replay-moves .analysis-loss")).to_have_count(len(turns) + len(plants))
    # The totals per player.
    rows = page.locator("#analysis-players tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("ann")

    # At the deal, the board shows the engine's first move: its visitor and what it takes.
    expect(page.locator("#replay")).to_have_attribute("data-ply", "0")
    first = turns[0]
    mark = page.locator("#replay-board svg .engine-move")
    expect(mark).to_have_attribute("data-move", first["best"])
    if " " in first["best"]:
        expect(mark.locator(".engine-take")).to_have_count(1)
    here = page.locator("#analysis-here")
    expect(here).to_contain_text(f"engine: {first['best']}")
    expect(here).to_contain_text(f"played {first['played']}")

    # The worst move: step to the position before it, the engine's move is drawn there.
    worst = max(range(len(turns)), key=lambda t: turns[t]["lost"])
    frames = replay_frames(game.record)["frames"]
    # A take and its plant are two frames of one turn; a turn is decided the frame before.
    starts = [i for i, frame in enumerate(frames) if i and frame["step"] != "plant"]
    for _ in range(starts[worst] - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(starts[worst] - 1))
    expect(mark).to_have_attribute("data-move", turns[worst]["best"])
    if turns[worst]["lost"] > 0:
        expect(here).to_contain_text("points lost")
    # One step on, the tile taken is seen: the plant is the decision, and the engine's
    # plant is drawn on the take (the whole move: visitor, cell and tile).
    take = next((t for t in plants if t >= worst), plants[-1])
    steps = starts[take] - (starts[worst] - 1)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(starts[take]))
    plant = turns[take]["plant"]
    expect(mark).to_have_attribute("data-move", plant["best"])
    expect(here).to_contain_text(f"played {plant['played']}")
    expect(here).to_contain_text(f"engine: {plant['best']}")

    shots = Path(os.environ.get("ANALYSIS_SHOTS") or tmp_path_factory.mktemp("analysis-shots"))
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"analysed-replay-{width}.png"), full_page=True)
        page.locator("#analysis").screenshot(path=str(shots / f"analysis-panel-{width}.png"))
        page.locator(".replay-board-wrap").screenshot(path=str(shots / f"board-{width}.png"))
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the analysed replay scrolls sideways at {width} px"
    print(f"screenshots in {shots}")
    context.close()


def test_a_visitor_who_is_not_signed_in_is_asked_to_sign_in(page, asgi_server):
    game, _ = finished_topiary_game()
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    expect(page.locator("#analysis-status")).to_have_text("This game has not been analysed yet.")
    expect(page.locator("#analysis-sign-in")).to_be_visible()
    expect(page.get_by_role("button", name="Request analysis")).to_have_count(0)
    assert Analysis.objects.count() == 0
