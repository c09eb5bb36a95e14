"""Browser helpers shared by the Chromium tests."""

from __future__ import annotations

from django.test import Client


def signed_in(browser, base_url: str, user):
    """A fresh browser context holding ``user``'s session (no login form), and a page in it."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page
