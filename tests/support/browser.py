"""Browser helpers shared by the Chromium tests."""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client
from playwright.sync_api import Error as PlaywrightError


@contextlib.contextmanager
def pushes_beside_playwright():
    """Run the test's own pushes to sockets on a thread of their own while Playwright runs.

    Playwright's sync API keeps an event loop running in the test's thread, and a push
    (``games.live.push``, an ``async_to_sync`` call) may not block a running loop; a
    service the test calls would otherwise log a failed push and send nothing.
    """
    from games import live

    send = live.push

    def push_on_a_thread(events):
        thread = threading.Thread(target=send, args=(events,))
        thread.start()
        thread.join()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(live, "push", push_on_a_thread)
        yield


def signed_in(browser, base_url: str, user):
    """A fresh browser context holding ``user``'s session (no login form), and a page in it."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": session_id(user), "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def session_id(user) -> str:
    """The id of a new signed-in session of ``user`` (the ``sessionid`` cookie's value)."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def in_thread(work):
    """Run game services in a thread of their own (Playwright's loop holds this one)."""

    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def phone(browser, base_url: str, user, size) -> tuple:
    """A touch-screen phone of ``size`` holding ``user``'s session, and a page in it."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    context.add_cookies([{"name": "sessionid", "value": session_id(user), "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def tap(page, locator) -> None:
    """A finger on the centre of what ``locator`` draws."""
    box = None
    for _ in range(5):
        # The page redraws its board on every frame (a presence, a move): an element found
        # just before a redraw is gone, and is looked up again.
        try:
            locator.scroll_into_view_if_needed()
            box = locator.bounding_box()
        except PlaywrightError:
            box = None
        if box is not None:
            break
        page.wait_for_timeout(50)
    assert box is not None, locator
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
