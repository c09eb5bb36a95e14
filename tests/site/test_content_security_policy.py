"""The Content-Security-Policy (issue 40): every page kind works under it in Chromium, and
the API's docs page draws Swagger UI from the site's own files.

A violation shows in the page as a ``securitypolicyviolation`` event and in Chromium's
console as a "Refused to ..." error; both are recorded on every page.
"""

from __future__ import annotations

import json

import pytest

from tests.support.browser import session_id
from tests.support.http import Session
from tests.support.site_walk import pages_to_visit, site_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Registered before any script of the page runs, in every document the page loads.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"}` +
    ` (${event.sourceFile || "document"}:${event.lineNumber})`);
});
"""

#: Pages beyond the audit's walk: the account pages it leaves out, the API's docs, and
#: Django's admin (signed out, its login form).
MORE_PAGES = [
    ("settings", "ann", "/account/settings/"),
    ("email-change", "ann", "/account/email/"),
    ("two-factor", "ann", "/account/two-factor/"),
    ("close-account", "ann", "/account/close/"),
    ("tokens", "ann", "/account/tokens/"),
    ("password-reset", None, "/accounts/password/reset/"),
    ("api-docs", None, "/api/docs"),
    ("admin-login", None, "/admin/login/"),
]


def open_recording(browser, base_url: str, cookie: str | None):
    """A page that records CSP violations, console errors and requests off the site."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=False)
    if cookie:
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": base_url}])
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {"console": [], "elsewhere": []}
    page.on("console", lambda m: found["console"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: found["console"].append(str(e)))

    def only_the_site(route):
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            found["elsewhere"].append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    return context, page, found


def test_the_header_names_every_source_the_pages_may_use(asgi_server):
    response = Session(asgi_server).get("/")
    headers = {name.lower(): value for name, value in response.headers.items()}
    policy = {
        directive.split()[0]: directive.split()[1:]
        for directive in headers["content-security-policy"].split("; ")
    }
    host = asgi_server.removeprefix("http://")
    assert policy["default-src"] == ["'self'"]
    assert "script-src" not in policy and "style-src" not in policy, "'self' alone, no inline"
    assert sorted(policy["connect-src"]) == sorted(["'self'", f"ws://{host}"])
    assert policy["img-src"] == ["'self'"], "data: images only on the API's docs page"
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == policy["form-action"] == ["'self'"]


def test_the_api_docs_render_every_operation_from_the_sites_own_files(browser, asgi_server):
    context, page, found = open_recording(browser, asgi_server, None)
    try:
        page.goto(asgi_server + "/api/docs", wait_until="load")
        page.wait_for_selector(".opblock")
        shown = page.locator(".opblock").count()
        document = json.loads(Session(asgi_server).get("/api/openapi.json").body)
        operations = sum(
            1
            for methods in document["paths"].values()
            for method in methods
            if method in {"get", "post", "put", "patch", "delete"}
        )
        assert shown == operations > 0
        assert page.locator(".info .title").inner_text().startswith("Topiary Online API")
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert found["elsewhere"] == [], "the page asked for something beyond the site"
    assert violations == [] and found["console"] == []


def test_no_page_breaks_the_policy(browser, asgi_server):
    data = site_data()
    cookies = {name: session_id(user) for name, user in data["users"].items()}
    problems: list[str] = []
    contexts = {}
    try:
        for name, who, path in pages_to_visit(data) + MORE_PAGES:
            if who not in contexts:
                contexts[who] = open_recording(browser, asgi_server, cookies.get(who))
            _context, page, found = contexts[who]
            found["console"].clear()
            response = page.goto(asgi_server + path, wait_until="load")
            if response is None or response.status != 200:
                problems.append(f"{name} ({path}): HTTP {response and response.status}")
            if name.startswith(("play-", "watch-", "game-over")):
                page.wait_for_selector("#board > *", state="attached")
            if page.locator("[data-chat]").count():
                page.wait_for_selector("[data-chat] .chat-room", state="attached")
            if name == "api-docs":
                page.wait_for_selector(".opblock")
            page.wait_for_timeout(150)
            problems += [f"{name} ({path}): {v}" for v in page.evaluate("window.__violations")]
            problems += [f"{name} ({path}): console: {text}" for text in found["console"]]
        for who, (_context, _page, found) in contexts.items():
            problems += [f"as {who}: asked beyond the site: {url}" for url in found["elsewhere"]]
    finally:
        for context, _page, _found in contexts.values():
            context.close()
    assert not problems, "\n".join(problems)


def test_a_violation_would_be_seen(browser, asgi_server):
    """The recording itself: an inline style and an inline script are reported."""
    context, page, found = open_recording(browser, asgi_server, None)
    try:
        page.goto(asgi_server + "/accounts/login/", wait_until="load")
        page.evaluate(
            """() => {
              document.querySelector("main").insertAdjacentHTML(
                "beforeend", '<p style="color: red">styled</p>');
              const script = document.createElement("script");
              script.textContent = "window.__ran = true";
              document.body.append(script);
            }"""
        )
        page.wait_for_timeout(150)
        violations = page.evaluate("window.__violations")
        ran = page.evaluate("window.__ran === true")
    finally:
        context.close()
    assert not ran
    assert any(v.startswith("style-src") for v in violations), violations
    assert any(v.startswith("script-src") for v in violations), violations
    assert any("Content Security Policy" in text for text in found["console"])
