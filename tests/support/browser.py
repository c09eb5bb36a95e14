"""Browser helpers shared by the Chromium tests."""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client


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
