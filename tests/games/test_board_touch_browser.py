"""Taps land where the finger is: the Topiary garden on a phone's touch screen (issue 41).

On a garden a phone's width the free positions are picked in two steps (the edge cell,
then the direction, drawn large: static/board/topiary.js); with a mouse on a large garden,
in one click. Each test drives Chromium with ``has_touch`` and taps with
``page.touchscreen.tap`` at the centre of what is drawn, as a finger would.
"""

from __future__ import annotations

import pytest

from games import selectors, services
from games.models import Game
from tests.games.conftest import live_game
from tests.games.pages import PATIENCE, shown_ply, status, wait_for_status, wait_past_ply
from tests.support.browser import phone, tap
from tests.support.tables import CORRESPONDENCE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = [(360, 740), (390, 844)]
#: WCAG 2.5.5: a finger's target, in CSS px (half a pixel for sub-pixel layout).
FINGER = 44 - 0.5

# Every target on the board: its own area (the hit rectangle, else the drawn group) and what it is.
TARGETS = """svg => [...svg.querySelectorAll('[role="button"]')].map((node) => {
  const area = node.querySelector(':scope > .hit') ?? node;
  const box = area.getBoundingClientRect();
  return {
    what: node.dataset.position ?? node.dataset.edge ?? node.dataset.cell ?? node.dataset.action,
    left: box.left, top: box.top, right: box.right, bottom: box.bottom,
  };
})"""


def targets_fit_a_finger(page, board: str = "#board") -> list[dict]:
    """The board's targets, asserting each owns at least 44x44 CSS px and none overlaps another."""
    targets = page.locator(board).evaluate(TARGETS)
    assert targets
    for target in targets:
        width, height = target["right"] - target["left"], target["bottom"] - target["top"]
        assert width >= FINGER and height >= FINGER, (target["what"], width, height)
    for i, a in enumerate(targets):
        for b in targets[i + 1 :]:
            across = min(a["right"], b["right"]) - max(a["left"], b["left"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            assert across <= 0.5 or down <= 0.5, f"{a['what']} overlaps {b['what']}"
    return targets


def free_positions(game, user) -> set[str]:
    frame = selectors.game_state_for(game.pk, user)
    return {move.split(" ")[0] for move in frame["legal_moves"]}


def choose_position(page, position: str) -> None:
    """Two taps: the edge cell's tile, then the direction shown large; the position is chosen."""
    cell = position.split(":")[0]
    tap(page, page.locator(f'#board .tile[data-cell="{cell}"] > :first-child'))
    picker = page.locator(f'#board .direction-picker[data-edge="{cell}"]')
    picker.wait_for()
    tap(page, picker.locator(f'.target-direction[data-position="{position}"] .hit'))
    page.locator(f'#board .target.chosen[data-position="{position}"]').wait_for()


@pytest.mark.parametrize("size", PHONES, ids=["360x740", "390x844"])
def test_every_free_position_and_face_down_tile_is_a_tap_of_its_own(
    browser, asgi_server, make_player, size, tmp_path
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    context, page = phone(browser, asgi_server, ann, size)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    board = page.locator("#board")
    assert board.get_attribute("data-picking") == "edge"
    shots = tmp_path / "touch"
    shots.mkdir()
    page.screenshot(path=str(shots / f"edges-{size[0]}.png"))

    # First step: one target per edge cell, the free positions drawn small inside it.
    edges = {t["what"] for t in targets_fit_a_finger(page)}
    wanted = free_positions(game, ann)
    drawn = set(
        board.locator(".target-edge .target").evaluate_all("ts => ts.map(t => t.dataset.position)")
    )
    assert drawn == wanted and len(wanted) == 56
    assert edges == {position.split(":")[0] for position in wanted}

    chosen = []
    for edge in sorted(edges):
        tap(page, board.locator(f'.tile[data-cell="{edge}"] > :first-child'))
        picker = board.locator(f'.direction-picker[data-edge="{edge}"]')
        picker.wait_for()
        # Second step: the cell's directions, each a finger's own square, and a way back.
        directions = {t["what"] for t in targets_fit_a_finger(page)} - {"back"}
        assert directions == {p for p in wanted if p.startswith(f"{edge}:")}
        if edge == "a1":
            page.screenshot(path=str(shots / f"directions-{size[0]}.png"))
        for position in sorted(directions):
            if position != min(directions):
                tap(page, board.locator(f'.tile[data-cell="{edge}"] > :first-child'))
            tap(page, picker.locator(f'.target-direction[data-position="{position}"] .hit'))
            shown = board.locator(".target.chosen")
            shown.wait_for()
            assert shown.get_attribute("data-position") == position
            assert f"A visitor at {position} would see" in page.locator("#prompt").text_content()
            chosen.append(position)
            tap(page, page.locator("#cancel"))
            board.locator(".target-edge").first.wait_for()
        # The way back closes the directions and chooses nothing.
        tap(page, board.locator(f'.tile[data-cell="{edge}"] > :first-child'))
        tap(page, picker.locator('[data-action="back"] .hit'))
        board.locator(".target-edge").first.wait_for()
        assert not board.locator(".target.chosen").count()
    assert sorted(chosen) == sorted(wanted)

    # Each face-down tile, from the column whose line holds it: a tap takes exactly it.
    taken = []
    for file in "abcde":
        choose_position(page, f"{file}1:N")
        tiles = board.locator(".tile.takeable")
        cells = tiles.evaluate_all("ts => ts.map(t => t.dataset.cell)")
        assert cells
        targets_fit_a_finger(page)
        for cell in cells:
            tap(page, board.locator(f'.tile[data-cell="{cell}"] .tile-back'))
            chosen_tile = board.locator(".tile.chosen")
            chosen_tile.wait_for()
            assert chosen_tile.get_attribute("data-cell") == cell
            assert f"Take the face-down tile at {cell}?" in page.locator("#prompt").text_content()
            taken.append(cell)
            tap(page, page.locator("#cancel"))
            board.locator(".tile.takeable").first.wait_for()
        if file == "c":
            page.screenshot(path=str(shots / f"take-{size[0]}.png"))
        tap(page, page.locator("#cancel"))
        board.locator(".target-edge").first.wait_for()
    garden = selectors.game_state_for(game.pk, ann)["position"]["garden"]
    face_down = {
        f"{file}{5 - rank}"
        for rank, row in enumerate(garden)
        for file, code in zip("abcde", row, strict=True)
        if code == "?"
    }
    assert sorted(taken) == sorted(face_down)
    # Nothing was sent: every choice was stepped back.
    assert shown_ply(page) == 0
    print(f"touch screenshots in {shots}")
    context.close()


def test_a_whole_topiary_game_against_a_bot_tapping_only(
    browser, asgi_server, celery_worker, make_player, tmp_path
):
    human = make_player()
    game = services.bot_game_create(
        user=human,
        kind="topiary",
        level="random",
        **CORRESPONDENCE,
    )
    context, page = phone(browser, asgi_server, human, (390, 844))
    page.goto(f"{asgi_server}/game/{game.pk}/")
    board = page.locator("#board")
    turns = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        ply = shown_ply(page)
        edges = board.locator(".target-edge")
        edge = edges.nth(turns % edges.count()).get_attribute("data-edge")
        tap(page, board.locator(f'.tile[data-cell="{edge}"] > :first-child'))
        directions = board.locator(".direction-picker .target-direction")
        direction = directions.nth(turns % directions.count())
        position = direction.get_attribute("data-position")
        tap(page, direction.locator(".hit"))
        assert board.locator(".target.chosen").get_attribute("data-position") == position
        takeable = board.locator(".tile.takeable")
        if takeable.count():
            tile = takeable.nth(turns % takeable.count())
            cell = tile.get_attribute("data-cell")
            tap(page, tile.locator(".tile-back"))
            assert board.locator(".tile.chosen").get_attribute("data-cell") == cell
            tap(page, page.locator("#confirm"))
            page.locator("#hand-tiles .hand-tile.taken").wait_for(timeout=PATIENCE * 1000)
            tap(page, page.locator("#hand-tiles .hand-tile.offered").nth(turns % 4))
        else:
            tap(page, page.get_by_role("button", name="Place only (take nothing)"))
        tap(page, page.locator("#confirm"))
        wait_past_ply(page, ply + (1 if takeable.count() else 0))
        turns += 1
    # The worker scores the game: then the cards and the status say the result.
    wait_for_status([page], lambda text: "wins" in text or "share the win" in text)
    page.screenshot(path=str(tmp_path / "game-over-390.png"), full_page=True)
    print(f"game over screenshot: {tmp_path / 'game-over-390.png'}")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    assert turns == 8 == sum(":" in entry["move"] for entry in game.moves if entry["seat"] == 0)
    # The cards show the final count only, not the count as it stood during play.
    cards = page.locator("#players .detail").all_text_contents()
    assert all("Final score" in card and "points now" not in card for card in cards)
    assert all("+ hand" not in card and "visitors left" not in card for card in cards)
    context.close()


@pytest.mark.parametrize("size", PHONES, ids=["360x740", "390x844"])
def test_the_puzzle_the_lesson_and_the_wizards_garden_board_take_taps_too(
    browser, asgi_server, make_player, size
):
    from puzzles import services as puzzle_services
    from tests.puzzles.conftest import WEDNESDAY

    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], kind="wizards_garden", first_player=0)
    puzzle_services.daily_puzzle_get_or_create(date=WEDNESDAY)
    context, page = phone(browser, asgi_server, ann, size)
    for path, board, words in (
        (f"/puzzles/{WEDNESDAY.isoformat()}/", "#puzzle-board svg", "#puzzle-status"),
        ("/learn/topiary/", "#lesson-board", ".lead"),
    ):
        page.goto(asgi_server + path)
        garden = page.locator(board)
        garden.locator(".target-edge").first.wait_for()
        assert garden.get_attribute("data-picking") == "edge"
        # The words say how a phone picks: the edge tile, then the direction.
        hint = page.locator(words).text_content()
        assert "tap the edge tile beside it, then the direction" in hint, hint
        edges = {t["what"] for t in targets_fit_a_finger(page, board)}
        edge = sorted(edges)[0]
        tap(page, garden.locator(f'.tile[data-cell="{edge}"] > :first-child'))
        directions = {t["what"] for t in targets_fit_a_finger(page, board)} - {"back"}
        position = sorted(directions)[-1]
        tap(page, garden.locator(f'.target-direction[data-position="{position}"] .hit'))
        chosen = garden.locator(".target.chosen")
        chosen.wait_for()
        assert chosen.get_attribute("data-position") == position, path

    # Wizards' Garden: a bed is a finger's target of its own; a tap on it chooses it.
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    beds = {t["what"] for t in targets_fit_a_finger(page)}
    assert beds
    for cell in sorted(beds):
        tap(page, page.locator(f'#board .bed-cell[data-cell="{cell}"] .bed'))
        assert f"Which side up on {cell}?" == page.locator("#prompt").text_content()
        tap(page, page.locator("#cancel"))
        page.locator("#board .bed.legal").first.wait_for()
    context.close()
