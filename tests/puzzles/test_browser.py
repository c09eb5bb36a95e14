"""Solving a daily puzzle in Chromium, through the real page served by the ASGI process."""

from __future__ import annotations

import pytest

from puzzles import services
from puzzles.models import PuzzleAttempt
from tests.puzzles.conftest import WEDNESDAY, short_line

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
    assert page.locator(f'[data-visitor="{puzzle.line[0].split()[0]}"]').count() == 1
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
    page.locator("#puzzle-line li").first.wait_for()
    assert page.locator("#puzzle-line li").all_inner_texts() == puzzle.line
