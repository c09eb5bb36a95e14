"""Driving the game page in Chromium as a player does: shared by the browser tests.

A Topiary turn with a take is two decisions on the page (docs/PROTOCOL.md, "A Topiary
turn in two steps"): choose the position and the face-down tile, confirm; the tile turns
over in the hand tray; choose which of the four to plant, confirm.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

#: How long a page may take to reach a state before the test fails (a deadline, not a measure).
PATIENCE = 60


def status(page) -> str:
    return page.locator("#status").text_content() or ""


def wait_for_status(pages, wanted) -> int:
    """Index of the first page whose status line satisfies ``wanted``."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        for index, page in enumerate(pages):
            if wanted(status(page)):
                return index
        pages[0].wait_for_timeout(100)
    raise AssertionError(f"no page reached the state; statuses: {[status(p) for p in pages]}")


def shown_ply(page) -> int:
    return int(page.locator("#game").get_attribute("data-ply"))


def wait_past_ply(page, ply: int) -> None:
    """Wait until the page shows a frame after ``ply``."""
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.ply) > {ply}", timeout=PATIENCE * 1000
    )


def hand(page) -> list[str]:
    return page.locator("#hand-tiles .hand-tile").evaluate_all(
        "tiles => tiles.map(tile => tile.dataset.tile)"
    )


@dataclass
class Take:
    """The first step of a turn as the mover's page showed it."""

    position: str
    cell: str | None = None
    took: str | None = None
    hand_before: tuple[str, ...] = ()


def take_step(page, turn: int) -> Take:
    """Choose a position and, where the line allows, a face-down tile to take; confirm.

    With a take, returns once the taken tile is face up in the hand tray (four tiles).
    """
    targets = page.locator("#board .target")
    target = targets.nth(turn % targets.count())
    position = target.get_attribute("data-position")
    target.click()
    takeable = page.locator("#board .tile.takeable")
    before = tuple(hand(page))
    if not takeable.count():
        page.get_by_role("button", name="Place only (take nothing)").click()
        page.locator("#confirm").click()
        return Take(position, hand_before=before)
    tile = takeable.nth(turn % takeable.count())
    cell = tile.get_attribute("data-cell")
    tile.click()
    page.locator("#confirm").click()
    taken = page.locator("#hand-tiles .hand-tile.taken")
    taken.wait_for(timeout=PATIENCE * 1000)
    return Take(position, cell, taken.get_attribute("data-tile"), before)


def plant_step(page, take: Take, *, plant_taken: bool) -> str:
    """Plant the tile just taken or the first other tile of the four; confirm. Returns it."""
    if plant_taken:
        choice = page.locator("#hand-tiles .hand-tile.taken")
    else:
        choice = page.locator("#hand-tiles .hand-tile.offered:not(.taken)").first
    planted = choice.get_attribute("data-tile")
    ply = shown_ply(page)
    choice.click()
    page.locator("#confirm").click()
    wait_past_ply(page, ply)
    return planted


def play_topiary_turn(page, turn: int) -> tuple[Take, str | None]:
    """A whole turn by clicking: position, maybe a take and a plant. Returns both choices."""
    ply = shown_ply(page)
    take = take_step(page, turn)
    if take.cell is None:
        wait_past_ply(page, ply)
        return take, None
    return take, plant_step(page, take, plant_taken=turn % 2 == 0)
