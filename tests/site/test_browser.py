"""The account pages in Debian's Chromium against the real ASGI server."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "hedge-maze-42"


def test_register_log_out_log_in_and_see_the_profile(page, asgi_server):
    page.goto(asgi_server + "/")
    page.get_by_role("link", name="Register").click()

    page.get_by_label("Username").fill("hedgehog")
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("Enter a valid email address.")).to_be_visible()
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "true")

    page.get_by_label("Email").fill("hedgehog@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(asgi_server + "/@/hedgehog/")
    expect(page.get_by_role("heading", level=1)).to_have_text("hedgehog")
    expect(page.get_by_role("status")).to_contain_text("Welcome to Topiary Online, hedgehog!")

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(asgi_server + "/")
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)

    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("HedgeHog")
    page.get_by_label("Password").fill("wrong-password-1")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("That username and password do not match.")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(asgi_server + "/")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="hedgehog").click()
    expect(page).to_have_url(asgi_server + "/@/hedgehog/")
    expect(page.get_by_role("heading", level=1)).to_have_text("hedgehog")
    expect(page.get_by_role("link", name="Change password")).to_be_visible()


@pytest.mark.parametrize("path", ["/", "/accounts/register/", "/accounts/login/"])
def test_pages_fit_a_phone_and_the_skip_link_leads_to_the_content(browser, asgi_server, path):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(asgi_server + path)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow == 0
        for link in page.get_by_role("navigation", name="Main").get_by_role("link").all():
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360

        page.keyboard.press("Tab")
        skip = page.get_by_role("link", name="Skip to content")
        expect(skip).to_be_focused()
        assert skip.bounding_box()["y"] >= 0
        page.keyboard.press("Enter")
        expect(page.locator("main")).to_be_focused()
    finally:
        context.close()
