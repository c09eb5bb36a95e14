"""The rules pages and the lessons in Chromium, through the real pages the ASGI process serves."""

from __future__ import annotations

import pytest
from django.test import Client

from learn.figures import FIGURES
from learn.lessons import LESSONS
from learn.models import LessonProgress
from tests.ratings.played import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WRONG_FIRST_TRY = {"topiary": ("e4:W",), "wizards_garden": ("c4W",)}


def watched(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@pytest.mark.parametrize("game", sorted(FIGURES))
def test_a_rules_page_draws_every_picture_and_fits_a_phone(browser, asgi_server, game):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        errors = watched(page)
        page.goto(f"{asgi_server}/rules/{game.replace('_', '-')}/")
        figures = FIGURES[game]
        boards = sum(2 if f.move else 1 for f in figures if f.position)
        page.locator("svg.figure-board").nth(boards - 1).wait_for(state="attached")
        assert page.locator("svg.figure-board").count() == boards
        # Every board has its pieces drawn, every picture its boards or tiles.
        drawn = page.eval_on_selector_all(
            "svg.figure-board", "els => els.map(el => el.querySelectorAll('rect').length)"
        )
        assert all(count >= 16 for count in drawn), drawn
        for shown in figures:
            holder = page.locator(f'[data-figure="{shown.key}"] .figure-boards > *')
            assert holder.count() >= 1, shown.key
            assert (
                page.locator(f'[data-figure="{shown.key}"] figcaption').inner_text() == shown.text()
            )
        tiles = sum(1 for f in figures if f.tiles or f.hand)
        assert page.locator(".figure-tiles").count() == tiles
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        assert errors == []
    finally:
        context.close()


def play(page, game: str, steps: tuple[str, ...]) -> None:
    """Play one answer by clicking, as a learner would."""
    if game == "wizards_garden":
        (move,) = steps
        page.click(f'[data-cell="{move[:2]}"]')
        page.click(f'[data-move="{move}"]')
        return
    place, _, take = steps[0].partition(" ")
    if page.locator("#lesson-board").get_attribute("data-picking") == "edge":
        # A garden a phone's width: the edge cell first, then the direction (issue 41).
        page.click(f'.target-edge[data-edge="{place.split(":")[0]}"]')
        page.click(f'.direction-picker [data-position="{place}"]')
    else:
        page.click(f'.target[data-position="{place}"]')
    if not take:
        page.click('[data-action="place-only"]')
        return
    page.click(f'.takeable[data-cell="{take}"]')
    page.click(f'[data-plant="{steps[1][1:]}"]')


def verdict(page, status: str) -> str:
    box = page.locator(f'#lesson-verdict[data-verdict="{status}"]')
    box.wait_for()
    return box.inner_text()


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_a_visitor_completes_a_lesson_by_clicking(browser, asgi_server, game):
    lesson = LESSONS[game]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        errors = watched(page)
        page.goto(f"{asgi_server}/learn/{lesson.slug}/")
        for number, step in enumerate(lesson.steps, 1):
            assert page.locator("#lesson-task").inner_text() == step.task
            if number == 1:
                play(page, game, WRONG_FIRST_TRY[game])
                assert str(step.hint) in verdict(page, "wrong")
                page.click('[data-action="retry"]')
            play(page, game, step.solution)
            assert str(step.explanation) in verdict(page, "right")
            if number < len(lesson.steps):
                page.click('[data-action="next"]')
        assert "Lesson complete" in page.locator("#lesson-verdict").inner_text()
        count = f"{len(lesson.steps)} of {len(lesson.steps)} solved"
        assert page.locator("#lesson-count").inner_text() == count
        # Kept in the browser: a visit later shows the same progress.
        page.reload()
        page.locator("#lesson-count").wait_for()
        assert page.locator("#lesson-count").inner_text() == count
        assert page.locator(".lesson-steps li.solved").count() == len(lesson.steps)
        assert not LessonProgress.objects.exists()
        assert errors == []
    finally:
        context.close()


def test_a_players_progress_is_kept_with_the_account(browser, asgi_server):
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    lesson = LESSONS["wizards_garden"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": asgi_server}]
        )
        page = context.new_page()
        page.goto(f"{asgi_server}/learn/{lesson.slug}/")
        play(page, lesson.game, lesson.steps[0].solution)
        verdict(page, "right")
        assert list(LessonProgress.objects.values_list("user__username", "step")) == [
            ("ann", lesson.steps[0].key)
        ]
        # Another browser of the same player starts at the next step.
        other = browser.new_context(viewport={"width": 1280, "height": 800})
        other.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": asgi_server}]
        )
        fresh = other.new_page()
        fresh.goto(f"{asgi_server}/learn/{lesson.slug}/")
        assert fresh.locator("#lesson-task").inner_text() == lesson.steps[1].task
        assert fresh.locator("#lesson-count").inner_text() == f"1 of {len(lesson.steps)} solved"
        other.close()
    finally:
        context.close()
