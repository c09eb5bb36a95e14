"""Every page in Chromium at two phone sizes and a desktop: what a new user would notice.

One walk through the site (home, lobby, games in play for both games and 2, 3 and 4
players, an open table, a game over, the puzzle and its archive, a replay, a history, a
profile, the leaderboards, the tournaments, the account pages, the rules pages and the
lessons) at 360x740, 390x844 and 1280x800, asserting on each page:

- no horizontal scrolling;
- on the phone sizes, every interactive target at least 44x44 CSS px (links inside a
  sentence excepted, as WCAG 2.5.5 does; a checkbox counts with its label);
- no two pawns or score labels on a board overlapping (a test of its own, on the pages
  with pawns);
- no console error and no uncaught exception;
- during play on a phone, the board, the hand tray, whose turn it is, the clocks and the
  place where Confirm appears all inside the first screen, with no scrolling;
- at 360 px the walk is in German (the browser asks for `de`, issue 17): no English word
  of the site's own catalogue shows, and the longer German words fit;
- on the game and replay pages, every clock read whole inside its card and the screen and
  not covered, every table cell fully shown, no table scrolling sideways (issue 41);
- at 390 px (dark) and 1280 px (light), no serious or critical axe-core violation.

Screenshots of every page go to the test run's temporary directory (printed at the end)
for a person to look at; they are not committed.
"""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.ratings.played import make_user
from tests.support.axe import blocking_violations
from tests.support.browser import session_id
from tests.support.i18n import ALLOWED, LOCALE, WORD, entries
from tests.support.reading import READ_IN_FULL
from tests.support.site_walk import CHAT_TEXTS, pages_to_visit, site_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone-360": (360, 740), "phone-390": (390, 844), "desktop": (1280, 800)}
#: The 390 px phone walks the site in the dark theme (the system's choice), so the
#: screenshots show both themes.
DARK = {"phone-390"}
PHONES = {"phone-360", "phone-390"}
#: The 360 px phone walks the site in German, as a browser set to German asks for it.
GERMAN = {"phone-360"}
#: WCAG 2.5.5 (AAA) target size, which the issue asks for on phones.
TARGET = 44
#: Half a pixel for sub-pixel layout.
SLACK = 0.5

# What one page reports, measured in the page itself.
MEASURE = """
([target, phone, exempt]) => {
  const root = document.documentElement;
  const report = { overflow: root.scrollWidth - root.clientWidth, small: [], overlaps: [] };
  const describe = (el) => {
    const words = el.getAttribute("aria-label") || el.textContent || el.value || "";
    const text = words.replace(/\\s+/g, " ").trim();
    const classes = typeof el.className === "string" ? el.className.trim().split(/\\s+/) : [];
    const id = el.id ? "#" + el.id : "";
    return `${el.tagName.toLowerCase()}${id}${classes.map((c) => "." + c).join("")}` +
      ` "${text.slice(0, 30)}"`;
  };
  const shown = (el) => {
    if (el.closest("[hidden]")) return false;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const union = (a, b) => {
    const left = Math.min(a.left, b.left), top = Math.min(a.top, b.top);
    return { width: Math.max(a.right, b.right) - left, height: Math.max(a.bottom, b.bottom) - top };
  };
  // A link inside running text is exempt (WCAG's "inline" exception).
  const inSentence = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    const block = el.parentElement.closest(
      "p, li, dd, dt, td, th, div, figcaption, label, h1, h2, h3, h4");
    if (!block) return false;
    return block.textContent.replace(/\\s+/g, " ").trim().length >
      el.textContent.replace(/\\s+/g, " ").trim().length + 2;
  };
  if (phone) {
    const interactive = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, ' +
      '[role="button"], [tabindex]:not([tabindex="-1"])');
    for (const el of interactive) {
      if (el.classList.contains("skip-link") || !shown(el) || inSentence(el)) continue;
      // A placed visitor is focusable to show its line, not to move: its pawn is drawn
      // by the shared board module (static/board/), which sizes it.
      if (el.matches("svg .visitor")) continue;
      if (exempt && el.matches(exempt)) continue;
      let box = el.getBoundingClientRect();
      if ((el.type === "checkbox" || el.type === "radio") && el.labels?.length) {
        box = union(box, el.labels[0].getBoundingClientRect());
      }
      if (box.width < target || box.height < target) {
        report.small.push(`${describe(el)} ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
      }
    }
  }
  for (const board of document.querySelectorAll("svg")) {
    const marks = [...board.querySelectorAll(".pawn, .seen, .score-label")].filter(shown);
    const boxes = marks.map((el) => [el, el.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, ra] = boxes[i], [b, rb] = boxes[j];
        // A pawn, its outline and the number on it are one mark: only separate marks count.
        if (a.parentNode === b.parentNode) continue;
        const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (w > 0.5 && h > 0.5) {
          const where = (el) => el.closest("[data-position]")?.dataset.position || "";
          report.overlaps.push(`${describe(a)}@${where(a)} / ${describe(b)}@${where(b)}`);
        }
      }
    }
  }
  return report;
}
"""

# Every text a reader meets on the page: what is shown, and the labels a screen reader
# says. Players' own words (chat messages, tournament names) are theirs, not the site's.
PAGE_TEXT = """
(own) => {
  const clone = document.body.cloneNode(true);
  clone.querySelectorAll(".chat-text, script, style, [hidden]").forEach((el) => el.remove());
  const labels = [...document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")]
    .filter((el) => !el.closest("[hidden]"))
    .map((el) => ["title", "aria-label", "placeholder", "alt"]
      .map((name) => el.getAttribute(name) || "").join(" "));
  let text = [document.title, clone.innerText, ...labels].join("\\n");
  for (const words of own) text = text.split(words).join(" ");
  return text;
}
"""


#: The pages of a game: playing, watching, over, and its replay.
GAME_PAGES = ("play-", "watch-", "game-", "replay")
#: axe-core runs in both themes: the 390 px phone is dark, the desktop light.
AXE_SIZES = {"phone-390", "desktop"}


def english_catalogue_words() -> set[str]:
    """Words of the site's English texts that German never uses: each one on a German
    page is a string that missed the catalogue."""
    english, german = set(), set()
    for domain in ("django", "djangojs"):
        for entry in entries(LOCALE / f"{domain}.po"):
            source = entry["msgid"] + " " + entry.get("msgid_plural", "")
            english.update(WORD.findall(re.sub(r"%\(\w+\)[sd]|<[^>]+>", " ", source)))
            german.update(WORD.findall(" ".join(entry["msgstr"].values())))
    german = {word.lower() for word in german}
    return {
        word
        for word in english
        if len(word) > 2 and word.lower() not in german and word not in ALLOWED
    }


def english_on_page(text: str, words: set[str], names: set[str]) -> list[str]:
    return sorted({word for word in WORD.findall(text) if word in words and word not in names})


# On a phone, what a player needs for a whole move, checked on first paint.
PLAY_CONTROLS = ["#board", "#status", "#players .clock:not(:empty)", "#chooser"]


def test_every_page_fits_every_screen(browser, asgi_server, tmp_path_factory):
    data = site_data()
    shots = tmp_path_factory.mktemp("audit-screenshots")
    cookies = {name: session_id(user) for name, user in data["users"].items()}
    english = english_catalogue_words()
    names = {*data["users"], "bramble"}
    own_words = [data["tournament_name"], *CHAT_TEXTS]
    problems: list[str] = []
    for size, (width, height) in VIEWPORTS.items():
        phone = size in PHONES
        contexts = {}
        try:
            for name, who, path in pages_to_visit(data):
                if who not in contexts:
                    context = browser.new_context(
                        viewport={"width": width, "height": height},
                        color_scheme="dark" if size in DARK else "light",
                        locale="de-DE" if size in GERMAN else "en-GB",
                    )
                    if who:
                        context.add_cookies(
                            [{"name": "sessionid", "value": cookies[who], "url": asgi_server}]
                        )
                    page = context.new_page()
                    page.set_default_timeout(15_000)
                    errors: list[str] = []
                    page.on(
                        "console",
                        lambda m, errors=errors: (
                            errors.append(m.text) if m.type == "error" else None
                        ),
                    )
                    page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                    contexts[who] = (context, page, errors)
                context, page, errors = contexts[who]
                errors.clear()
                where = f"{size} {name} ({path})"
                response = page.goto(asgi_server + path, wait_until="load")
                if response is None or response.status != 200:
                    problems.append(f"{where}: HTTP {response and response.status}")
                if name.startswith(("play-", "watch-", "game-over")):
                    page.wait_for_selector("#board > *", state="attached")
                if name in ("puzzle", "puzzle-training"):
                    page.wait_for_selector("#puzzle-board > *", state="attached")
                if name == "home-challenged":
                    page.wait_for_selector(".alert-note")
                if page.locator("[data-chat]").count():
                    page.wait_for_selector("[data-chat] .chat-room", state="attached")
                if name.startswith("lesson-"):
                    page.wait_for_selector("#lesson-board > *", state="attached")
                page.wait_for_timeout(150)
                page.screenshot(path=str(shots / f"{size}-{name}.png"), full_page=True)
                report = page.evaluate(MEASURE, [TARGET - SLACK, phone, ""])
                if report["overflow"] > 0:
                    problems.append(f"{where}: {report['overflow']} px of horizontal scrolling")
                problems += [f"{where}: target under 44 px: {small}" for small in report["small"]]
                problems += [f"{where}: console error: {error}" for error in errors]
                if phone and name.startswith("play-"):
                    problems += controls_off_screen(page, where, height)
                if name.startswith(GAME_PAGES):
                    problems += [f"{where}: {p}" for p in page.evaluate(READ_IN_FULL, SLACK)]
                if size in AXE_SIZES:
                    problems += [f"{where}: axe: {v}" for v in blocking_violations(page)]
                if size in GERMAN:
                    if page.evaluate("document.documentElement.lang") != "de":
                        problems.append(f"{where}: <html lang> is not de")
                    text = page.evaluate(PAGE_TEXT, own_words)
                    leaks = english_on_page(text, english, names)
                    if leaks:
                        problems.append(f"{where}: English in the German page: {leaks}")
        finally:
            for context, _page, _errors in contexts.values():
                context.close()
    print(f"\nScreenshots: {shots}")
    assert not problems, "\n".join(problems)


def controls_off_screen(page, where: str, height: int) -> list[str]:
    """What a player needs for a move and cannot see on the first screen."""
    missing = []
    selectors = PLAY_CONTROLS + (["#hand"] if "topiary" in where else [])
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        if box is None:
            missing.append(f"{where}: {selector} is not shown")
        elif box["y"] < 0 or box["y"] + box["height"] > height + SLACK:
            missing.append(
                f"{where}: {selector} spans y={box['y']:.0f}..{box['y'] + box['height']:.0f},"
                f" past the screen's {height}"
            )
    return missing


def test_no_two_pawns_or_score_labels_overlap(browser, asgi_server):
    data = site_data()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [{"name": "sessionid", "value": session_id(data["users"]["ann"]), "url": asgi_server}]
    )
    overlaps = []
    try:
        page = context.new_page()
        game_ids = [data["finished"], *data["live"].values()]
        for path in [f"/game/{game_id}/" for game_id in game_ids] + [
            f"/games/{data['finished']}/replay/"
        ]:
            page.goto(asgi_server + path)
            page.wait_for_selector("svg circle", state="attached")
            report = page.evaluate(MEASURE, [TARGET - SLACK, False, ""])
            overlaps += [f"{path}: {pair}" for pair in report["overlaps"]]
    finally:
        context.close()
    assert not overlaps, "\n".join(overlaps)


def test_the_puzzles_free_positions_fit_a_finger(browser, asgi_server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(asgi_server + "/puzzles/")
        # On a phone the free positions are picked by their edge cell first (issue 41).
        page.wait_for_selector("svg .target-edge", state="attached")
        assert page.locator("svg .target-edge[role=button]").count() > 0
        report = page.evaluate(MEASURE, [TARGET - SLACK, True, ""])
        small = [target for target in report["small"] if "free position" in target]
        assert not small, "\n".join(small)
    finally:
        context.close()


def test_the_lobby_and_tournament_forms_offer_only_what_the_choice_takes(browser, asgi_server):
    ann = make_user("ann")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "sessionid", "value": session_id(ann), "url": asgi_server}])
    try:
        page = context.new_page()
        page.goto(asgi_server + "/play/")
        page.select_option("#table_kind", "wizards_garden")
        players = page.locator("#table_players")
        assert players.input_value() == "2"
        assert page.locator("#table_players option[value='3']").is_disabled()
        # Topiary's rule options are not offered for Wizards' Garden; its own is.
        assert page.locator("#table_corner_diagonals").is_disabled()
        assert page.locator("#table_setup_apart").is_enabled()
        page.select_option("#table_kind", "topiary")
        assert page.locator("#table_players option[value='4']").is_enabled()
        assert page.locator("#table_corner_diagonals").is_enabled()
        assert page.locator("#table_setup_apart").is_disabled()

        page.goto(asgi_server + "/tournaments/")
        page.select_option("#id_format", "round_robin")
        assert not page.locator("#id_rounds").is_visible()
        assert page.locator("#id_max_players").get_attribute("max") == "10"
        page.select_option("#id_format", "arena")
        assert page.locator("#id_duration_minutes").is_visible()
        assert not page.locator("#id_place_points").is_visible()
    finally:
        context.close()


def test_the_footer_switch_sets_the_theme_and_keeps_it(browser, asgi_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light")
    try:
        page = context.new_page()
        page.goto(asgi_server + "/")
        background = "getComputedStyle(document.documentElement).backgroundColor"
        light = page.evaluate(background)
        page.get_by_label("Theme").select_option("dark")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate(background) != light
        page.goto(asgi_server + "/puzzles/about/")
        assert page.get_by_label("Theme").input_value() == "dark"
        assert page.evaluate("JSON.parse(localStorage.getItem('topiary-prefs')).theme") == "dark"
    finally:
        context.close()


def test_a_visitors_language_choice_holds_across_pages(browser, asgi_server):
    """Signed out, with an English browser: choosing Deutsch in the footer turns this page
    and every later one German, until English is chosen again."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(asgi_server + "/play/")
        lang = "document.documentElement.lang"
        assert page.evaluate(lang) == "en"
        english_nav = page.locator(".nav-links").inner_text()
        with page.expect_navigation():
            page.locator("#language-choice").select_option("de")
        assert page.url.endswith("/play/")
        assert page.evaluate(lang) == "de"
        assert page.locator(".nav-links").inner_text() != english_nav
        for path in ("/rules/topiary/", "/puzzles/about/", "/accounts/login/"):
            page.goto(asgi_server + path)
            assert page.evaluate(lang) == "de", path
            assert page.locator("#language-choice").input_value() == "de"
        with page.expect_navigation():
            page.locator("#language-choice").select_option("en")
        assert page.evaluate(lang) == "en"
        assert page.locator(".nav-links").inner_text() == english_nav
    finally:
        context.close()


def test_the_audit_catches_a_page_wider_than_the_phone(browser, asgi_server):
    """The measure itself: a too-wide element and a tiny button are reported."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(asgi_server + "/accounts/login/")
        page.evaluate(
            """() => {
              const wide = document.createElement("div");
              wide.style.width = "500px"; wide.style.height = "10px";
              const tiny = document.createElement("button");
              tiny.textContent = "x"; tiny.style.cssText = "min-height:0;padding:0;font-size:8px";
              document.querySelector("main").append(wide, tiny);
            }"""
        )
        report = page.evaluate(MEASURE, [TARGET - SLACK, True, ""])
        assert report["overflow"] > 0
        assert any('"x"' in small for small in report["small"])
    finally:
        context.close()
    assert Game.objects.count() == 0
