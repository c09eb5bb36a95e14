"""Puzzle Streak on a phone, by touch: three solved, the fourth missed, the streak is over."""

from __future__ import annotations

import json

import pytest

from puzzles.models import TrainingPuzzle, TrainingRun
from tests.ratings.played import make_user
from tests.support.browser import phone, tap
from tests.support.training import QUICK_DATES, failing_line, garden_puzzle, training_puzzle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def current_puzzle(page) -> TrainingPuzzle:
    data = json.loads(page.locator("#puzzle-data").text_content())
    return TrainingPuzzle.objects.get(pk=int(data["urls"]["submit"].split("/")[3]))


def play_by_touch(page, move: str) -> None:
    """One move as a finger plays it: the position (edge, then direction on a phone's
    garden), the tile to take and the one to plant (or place only), then Confirm."""
    place, _, take = move.partition(" ")
    board = page.locator("#puzzle-board svg")
    if board.get_attribute("data-picking") == "edge":
        cell = place.split(":")[0]
        tap(page, page.locator(f'#puzzle-board .tile[data-cell="{cell}"] > :first-child'))
        picker = page.locator(f'#puzzle-board .direction-picker[data-edge="{cell}"]')
        picker.wait_for()
        tap(page, picker.locator(f'.target-direction[data-position="{place}"] .hit'))
    else:
        tap(page, page.locator(f'#puzzle-board .target[data-position="{place}"]'))
    if take:
        cell, plant = take.split("=")
        tap(page, page.locator(f'#puzzle-board [data-cell="{cell}"].takeable'))
        tap(page, page.locator(f'#puzzle-hand [data-plant="{plant}"]'))
    else:
        tap(page, page.locator('[data-action="place-only"]'))
    tap(page, page.locator('[data-action="confirm"]'))
    page.wait_for_selector(f'#puzzle-moves li:has-text("{move}")')


def test_a_streak_of_three_on_a_phone_ends_at_the_fourth_puzzles_mistake(
    asgi_server, browser, tmp_path
):
    for n, date in enumerate(QUICK_DATES[:4]):
        training_puzzle(date, rating=1000 + 50 * n, tag="streak")
    runner = make_user("streaker")
    context, page = phone(browser, asgi_server, runner, (390, 844))
    try:
        page.goto(f"{asgi_server}/puzzles/streak/")
        tap(page, page.locator('[data-action="start"]'))
        for solved in range(3):
            page.locator("#puzzle-board svg").wait_for()
            puzzle = current_puzzle(page)
            play_by_touch(page, puzzle.line[0])
            tap(page, page.get_by_role("button", name="Submit"))
            page.locator("#puzzle-result .verdict.solved").wait_for()
            assert page.locator(".run-verdict").inner_text() == f"Streak: {solved + 1} solved."
            if solved == 0:
                page.screenshot(path=str(tmp_path / "streak-390-solved.png"), full_page=True)
            # The run's page again (same address), now with the run's next puzzle.
            with page.expect_navigation():
                tap(page, page.locator('[data-action="next"]'))

        page.locator("#puzzle-board svg").wait_for()
        last = current_puzzle(page)
        play_by_touch(page, failing_line(last)[0])
        tap(page, page.get_by_role("button", name="Submit"))
        page.locator(".run-verdict").wait_for()
        assert page.locator(".run-verdict").inner_text() == "Streak over: 3 solved."
        # No second try inside a run: the next step is the result.
        assert page.get_by_role("button", name="Try again").count() == 0
        with page.expect_navigation():
            tap(page, page.get_by_role("link", name="See the result"))
        assert page.locator("#run-score").inner_text() == "3 puzzles solved."
        page.screenshot(path=str(tmp_path / "streak-390-over.png"), full_page=True)
        (run,) = TrainingRun.objects.filter(user=runner)
        assert run.score == 3 and run.ended_at is not None
        assert run.attempts.filter(rated=True).count() == 4
    finally:
        context.close()


def test_a_wizards_garden_puzzle_solved_by_touch_on_a_phone(asgi_server, browser, tmp_path):
    """K = 2: plant (bed, then side), the server's reply shows, plant again, submit: solved.
    The answer is not in the page until then."""
    puzzle = garden_puzzle("staff", k=2)
    training_puzzle(rating=puzzle.rating, tag="beside")
    solver = make_user("planter")
    context, page = phone(browser, asgi_server, solver, (390, 844))
    try:
        page.goto(f"{asgi_server}/puzzles/train/?kind=wizards_garden")
        page.locator("#puzzle-board svg .bed-cell").first.wait_for()
        assert current_puzzle(page) == puzzle
        assert " ".join(puzzle.line) not in page.content()
        assert page.locator("#puzzle-hand-box").is_hidden()
        for n, move in enumerate(puzzle.line[::2]):
            tap(page, page.locator(f'#puzzle-board .bed-cell[data-cell="{move[:2]}"]'))
            tap(page, page.locator(f'#puzzle-choice [data-move="{move}"]'))
            page.wait_for_selector(f'#puzzle-moves li:has-text("{move}")')
            if n == 0:
                page.locator("#puzzle-moves li.reply").wait_for()
                assert puzzle.line[1] in page.locator("#puzzle-moves li.reply").inner_text()
                page.screenshot(path=str(tmp_path / "garden-390-reply.png"), full_page=True)
        tap(page, page.get_by_role("button", name="Submit"))
        page.locator("#puzzle-result .verdict.solved").wait_for()
        page.screenshot(path=str(tmp_path / "garden-390-solved.png"), full_page=True)
        (attempt,) = puzzle.attempts.all()
        assert attempt.solved and attempt.rated and attempt.moves == list(puzzle.line[::2])
    finally:
        context.close()
