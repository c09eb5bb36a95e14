"""Solving a daily puzzle in Chromium, through the real page served by the ASGI process."""

from __future__ import annotations

import pytest

from engine import topiary
from puzzles import services
from puzzles.models import PuzzleAttempt
from tests.puzzles.conftest import WEDNESDAY, short_line
from tests.ratings.played import make_user
from tests.support.browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play(page, move: str) -> None:
    """Play one move by clicking, as a solver would: position, tile to take, tile to plant."""
    place, _, take = move.partition(" ")
    page.click(f'[data-position="{place}"]')
    if take:
        cell, plant = take.split("=")
        page.click(f'[data-cell="{cell}"]')
        page.click(f'[data-plant="{plant}"]')
    else:
        page.click('[data-action="place-only"]')
    page.click('[data-action="confirm"]')
    page.wait_for_selector(f'#puzzle-moves li:has-text("{move}")')


def test_a_solver_plays_the_optimal_line_through_the_board_and_sees_solved(asgi_server, page):
    puzzle = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    page.goto(f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/")
    assert page.locator("#puzzle-line").inner_text().strip() == ""
    submit = page.get_by_role("button", name="Submit")
    assert submit.is_disabled()

    # A wrong first try, undone before submitting.
    wrong, _ = short_line(puzzle)
    play(page, wrong[0])
    page.get_by_role("button", name="Undo").click()
    assert page.locator("#puzzle-moves li").count() == 0

    for move in puzzle.line:
        play(page, move)
    assert page.locator(f'.visitor[data-position="{puzzle.line[0].split()[0]}"]').count() == 1
    submit.click()
    verdict = page.locator("#puzzle-result .verdict")
    verdict.wait_for()
    assert verdict.inner_text() == "Solved"

    page.get_by_role("button", name="Show an optimal line").click()
    shown = page.locator("#puzzle-line li").all_inner_texts()
    assert shown == puzzle.line
    page.click('[data-action="play-line"]')
    page.locator(f"#puzzle-moves li >> nth={puzzle.k - 1}").wait_for()
    assert page.locator("#puzzle-moves li").all_inner_texts() == puzzle.line
    assert not PuzzleAttempt.objects.exists()  # anonymous: judged, not stored


def test_a_short_line_shows_the_score_against_the_optimum(asgi_server, page):
    puzzle = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    moves, score = short_line(puzzle)
    page.goto(f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/")
    for move in moves:
        play(page, move)
    page.get_by_role("button", name="Submit").click()
    verdict = page.locator("#puzzle-result .verdict")
    verdict.wait_for()
    assert verdict.inner_text() == f"{score} / {puzzle.optimum}"
    assert page.get_by_role("button", name="Show an optimal line").count() == 0
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Yes, give up").click()
    page.locator("#puzzle-line li").first.wait_for()
    assert page.locator("#puzzle-line li").all_inner_texts() == puzzle.line


def test_give_up_asks_first_and_the_panel_then_says_how_it_ended(asgi_server, browser, tmp_path):
    """Giving up costs rating: the page asks in the panel (no browser dialog), Keep trying or
    Esc changes nothing, and after the end the panel no longer says "Your turn"."""
    ann = make_user("ann")
    services.daily_puzzle_get_or_create(date=WEDNESDAY)
    context, page = signed_in(browser, asgi_server, ann)
    try:
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/")
        assert page.locator("#puzzle-side-title").inner_text() == "Your turn"
        question = page.locator("#puzzle-give-up-question")
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_role("button", name="Give up").click()
        assert "rated loss" in question.inner_text()
        # For a person to look at (the run's temporary directory).
        page.locator(".puzzle-side").screenshot(path=str(tmp_path / "390-give-up-asked.png"))
        page.get_by_role("button", name="Keep trying").click()
        assert question.is_hidden()
        page.get_by_role("button", name="Give up").click()
        page.keyboard.press("Escape")
        assert question.is_hidden()
        assert not PuzzleAttempt.objects.exists()

        page.get_by_role("button", name="Give up").click()
        page.get_by_role("button", name="Yes, give up").click()
        page.locator("#puzzle-line li").first.wait_for()
        assert page.locator("#puzzle-side-title").inner_text() == "Your result"
        status = page.locator("#puzzle-status").inner_text()
        assert status == "You gave up: an optimal line is below."
        assert question.is_hidden()
        assert dialogs == []
        page.locator(".puzzle-side").screenshot(path=str(tmp_path / "390-gave-up.png"))
        (attempt,) = PuzzleAttempt.objects.filter(user=ann)
        assert attempt.gave_up and attempt.rated
    finally:
        context.close()


def test_the_solver_is_told_their_seat_as_the_pawns_name_it(asgi_server, page):
    puzzle = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    page.goto(f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/")
    # Seats are counted from 1 on every board: the others' pawns are "Seat N", never 0.
    assert f"You play seat {puzzle.seat + 1} " in page.locator(".lead").inner_text()


def test_a_take_reads_as_on_the_game_page_the_taken_tile_joins_the_hand(asgi_server, page):
    puzzle = services.daily_puzzle_get_or_create(date=WEDNESDAY)
    state = topiary.state_from_json(puzzle.position)
    move = next(m for m in state.legal_moves() if m.endswith("=*"))
    place, _, take = move.partition(" ")
    cell = take.split("=")[0]
    taken = topiary.state_from_json(puzzle.position).to_json()["garden"]
    took = taken[5 - int(cell[1])]["abcde".index(cell[0])].upper()
    name = f"{topiary.TYPE_NAMES[took[0]]} {took[1]}"
    page.goto(f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/")
    page.click(f'[data-position="{place}"]')
    assert "Take a face-down tile from the line" in page.locator("#puzzle-status").inner_text()
    page.click(f'[data-cell="{cell}"]')
    # The game page's words: the tile taken joins the hand as the fourth, any may be planted.
    assert page.locator("#puzzle-status").inner_text() == (
        f"You took {name}. Choose the tile to plant face up at {cell}: any of your four."
    )
    tray = page.locator("#puzzle-hand button.hand-tile")
    assert tray.count() == 4
    assert page.get_by_role("button", name=f"Plant {name} (just taken)").count() == 1
    assert "Keep the taken tile" not in page.content()
    page.get_by_role("button", name=f"Plant {name} (just taken)").click()
    page.click('[data-action="confirm"]')
    page.wait_for_selector(f'#puzzle-moves li:has-text("{move}")')
    # The planted tile is face up where it was taken.
    planted = page.locator(f'[data-cell="{cell}"]')
    assert planted.get_attribute("data-tile") == took
    assert planted.locator(".tile-art title").first.text_content() == name
