"""The tokens page in Chromium on a phone (the real ASGI server, PostgreSQL, Redis): a token
made once whatever the reloads, its one-time secret in full on screen, and copied."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from api.models import ApiToken
from tests.support.players import PASSWORD, create_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]


def phone(browser, base_url: str, user, *, width: int, clipboard: bool):
    """A context the size of a phone holding ``user``'s session, and a page in it."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 844})
    if clipboard:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def no_sideways_overflow(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def make_token(page, base_url: str, name: str) -> str:
    page.goto(f"{base_url}/account/tokens/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_role("checkbox", name="read", exact=False).first.check()
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Create token").click()
    secret = page.locator("#token-secret")
    expect(secret).to_be_visible()
    return secret.inner_text()


@pytest.mark.parametrize("width", [390, 360])
def test_a_token_made_on_a_phone_is_made_once_shown_whole_and_copied(browser, asgi_server, width):
    ann = create_player(f"ann{width}", f"ann{width}@example.com")
    context, page = phone(browser, asgi_server, ann, width=width, clipboard=True)
    try:
        secret = make_token(page, asgi_server, "phone bot")
        assert secret.startswith("tpy_") and len(secret) > 40
        box = page.locator("#token-secret").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert no_sideways_overflow(page)

        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_role("status")).to_have_text("Copied.")
        assert page.evaluate("navigator.clipboard.readText()") == secret

        # A reload neither shows the secret again nor makes a second token.
        page.reload()
        expect(page.locator(".token-row")).to_have_count(1)
        expect(page.locator("#token-secret")).to_have_count(0)
        assert secret not in page.content()
        assert ApiToken.objects.filter(user=ann).count() == 1
        assert no_sideways_overflow(page)
    finally:
        context.close()


def test_without_the_clipboard_the_copy_button_selects_the_secret(browser, asgi_server):
    bea = create_player("bea", "bea@example.com")
    context, page = phone(browser, asgi_server, bea, width=390, clipboard=False)
    # A browser that refuses the clipboard (an insecure page, an old engine).
    page.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () =>"
        " Promise.reject(new Error('no clipboard'))}})"
    )
    try:
        secret = make_token(page, asgi_server, "selected")
        page.get_by_role("button", name="Copy").click()
        expect(page.get_by_role("status")).to_contain_text("Selected")
        assert page.evaluate("window.getSelection().toString()").strip() == secret
    finally:
        context.close()
