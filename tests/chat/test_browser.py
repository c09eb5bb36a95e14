"""Chat in Chromium: players and a spectator each see only their rooms, a mute hides at once,
the rate limit and the length cap refuse with a clear message, and markup, scripts and long
messages show as inert text on every page with a chat (game, lobby, tournament, replay)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection

from chat import services as chat
from games import services as games
from tests.chat.conftest import live_game, make_tournament
from tests.games.pages import PATIENCE
from tests.support.browser import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WAIT = PATIENCE * 1000


def beside_playwright(function, **kwargs):
    """Run a service on a thread of its own: its socket push (async_to_sync) cannot run in the
    thread where Playwright's event loop runs."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(**kwargs)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return outcome.get("value")


def open_chat(page, url: str):
    page.goto(url)
    page.wait_for_selector("[data-chat] .chat-room", timeout=WAIT)


def room(page, name: str):
    return page.locator(f'[data-chat] .chat-room[data-room="{name}"]')


def rooms_shown(page) -> list[str]:
    return page.locator("[data-chat] .chat-room").evaluate_all("s => s.map((r) => r.dataset.room)")


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def sees(page, room_name: str, text: str) -> None:
    room(page, room_name).locator(".chat-text", has_text=text).first.wait_for(timeout=WAIT)


def chat_texts(page) -> list[str]:
    return page.locator(".chat-text").all_text_contents()


def refusal(page) -> str:
    box = page.locator("[data-chat-refusal]")
    box.wait_for(state="visible", timeout=WAIT)
    return box.text_content()


def test_players_and_a_spectator_chat_in_one_game_each_in_their_rooms(
    browser, asgi_server, make_player
):
    ann, bob, carol = make_player("ann"), make_player("bob"), make_player("carol")
    game = live_game([ann, bob], first_player=0)
    url = f"{asgi_server}/game/{game.pk}/"
    contexts, pages = zip(
        *(signed_in(browser, asgi_server, u) for u in (ann, bob, carol)), strict=True
    )
    ann_page, bob_page, carol_page = pages
    try:
        for page in pages:
            open_chat(page, url)
        assert rooms_shown(ann_page) == rooms_shown(bob_page) == ["players"]
        assert rooms_shown(carol_page) == ["spectators"]

        say(ann_page, "Good luck, Bob")
        sees(bob_page, "players", "Good luck, Bob")
        say(carol_page, "Bob, take c4!")
        sees(carol_page, "spectators", "Bob, take c4!")
        say(bob_page, "Thanks Ann")
        sees(ann_page, "players", "Thanks Ann")
        assert "Bob, take c4!" not in chat_texts(ann_page) + chat_texts(bob_page)
        assert not {"Good luck, Bob", "Thanks Ann"} & set(chat_texts(carol_page))

        # Bob mutes Ann: her messages go at once, and later ones never show.
        ann_line = room(bob_page, "players").locator('.chat-message[data-author="ann"]').first
        ann_line.locator(".chat-more").click()
        ann_line.get_by_role("button", name="Mute ann").click()
        bob_page.locator("[data-chat-muted]", has_text="Unmute ann").wait_for(timeout=WAIT)
        assert bob_page.locator('.chat-message[data-author="ann"]').count() == 0
        say(ann_page, "Are you still there?")
        sees(ann_page, "players", "Are you still there?")
        say(bob_page, "Quiet now")
        sees(ann_page, "players", "Quiet now")
        sees(bob_page, "players", "Quiet now")
        assert not [t for t in chat_texts(bob_page) if "Good luck" in t or "still there" in t]
        open_chat(bob_page, url)
        assert chat_texts(bob_page) == ["Thanks Ann", "Quiet now"]

        # The length cap: the counter warns, the server refuses and the text stays to shorten.
        carol_page.fill("#chat-text", "y" * 200)
        assert "200 / 140" in carol_page.locator("[data-chat-count]").text_content()
        carol_page.press("#chat-text", "Enter")
        assert "at most 140 characters" in refusal(carol_page)
        assert carol_page.input_value("#chat-text") == "y" * 200

        # The rate limit: sending fast is soon refused, with the reason.
        for n in range(15):
            say(carol_page, f"spam {n}")
            if "too fast" in (carol_page.locator("[data-chat-refusal]").text_content() or ""):
                break
            carol_page.wait_for_timeout(50)
        assert "too fast" in refusal(carol_page)
        assert "spam" not in " ".join(chat_texts(ann_page) + chat_texts(bob_page))
    finally:
        for context in contexts:
            context.close()


PAYLOADS = [
    "<script>window.__chatPwned = 'script'</script>",
    "<img src=x onerror=\"window.__chatPwned = 'img'\">",
    "<a href=\"javascript:window.__chatPwned = 'link'\">click me</a>",
    "javascript:window.__chatPwned = 'bare'",
    "https://example.com/a-link-left-as-text",
    "<b>bold?</b> &amp; <i onmouseover=alert(1)>x</i>",
    "W" * 140,
]

INERT = """() => ({
  pwned: window.__chatPwned ?? null,
  markup: document.querySelectorAll(".chat-messages :is(script, img, a, b, i, svg)").length,
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
})"""


def watch(page, problems: list[str]) -> None:
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))


def test_markup_scripts_and_long_messages_are_inert_text_on_every_page(
    browser, asgi_server, make_player, settings
):
    settings.CHAT_USER_LIMIT = 100
    ann, bob, carol, dan = (make_player(n) for n in ("ann", "bob", "carol", "dan"))
    game = live_game([ann, bob], first_player=0)
    event = make_tournament(dan)
    for text in PAYLOADS:
        for user, kind, place_id, name in (
            (ann, "lobby", None, "lobby"),
            (ann, "game", game.pk, "players"),
            (carol, "game", game.pk, "spectators"),
            (ann, "tournament", event.pk, "tournament"),
        ):
            beside_playwright(
                chat.chat_post, user=user, kind=kind, place_id=place_id, room=name, text=text
            )
    beside_playwright(games.game_resign, game_id=game.pk, user=bob)

    problems: list[str] = []
    ann_context, ann_page = signed_in(browser, asgi_server, ann)
    dan_context, dan_page = signed_in(browser, asgi_server, dan)
    visitor_context = browser.new_context(viewport={"width": 390, "height": 844})
    visitor = visitor_context.new_page()
    for page in (ann_page, dan_page, visitor):
        watch(page, problems)
    try:
        live = [
            (ann_page, f"/game/{game.pk}/", 2),
            (visitor, f"/game/{game.pk}/", 1),
            (ann_page, "/play/", 1),
            (ann_page, f"/tournaments/{event.pk}/", 1),
            (visitor, f"/tournaments/{event.pk}/", 1),
        ]
        for page, path, rooms in live:
            open_chat(page, asgi_server + path)
            shown = chat_texts(page)
            assert shown == PAYLOADS * rooms, path
            assert page.evaluate(INERT) == {"pwned": None, "markup": 0, "overflow": 0}, path

        # Live, from the lobby's form to a visitor's lobby, and a message far over the cap.
        open_chat(visitor, f"{asgi_server}/play/")
        open_chat(dan_page, f"{asgi_server}/play/")
        say(dan_page, "<img src=y onerror=\"window.__chatPwned = 'live'\"> <script>x()</script>")
        sees(visitor, "lobby", "<img src=y onerror=")
        say(dan_page, "<script>" * 1000)
        assert "at most 140 characters" in refusal(dan_page)
        for page in (visitor, dan_page):
            assert page.evaluate(INERT) == {"pwned": None, "markup": 0, "overflow": 0}

        ann_page.goto(f"{asgi_server}/games/{game.pk}/replay/")
        replay = ann_page.locator("[data-chat-history] .chat-text").all_text_contents()
        assert replay == PAYLOADS * 2
        assert ann_page.evaluate(INERT) == {"pwned": None, "markup": 0, "overflow": 0}
        for page in (ann_page, dan_page, visitor):
            page.mouse.move(5, 5)
            page.wait_for_timeout(200)
    finally:
        for context in (ann_context, dan_context, visitor_context):
            context.close()
    assert problems == []


SHOTS = Path("/tmp/chat-screenshots")


def test_on_a_phone_the_chat_sits_below_the_board_and_controls(browser, asgi_server, make_player):
    ann, bob = make_player("ann"), make_player("bob")
    game = live_game([ann, bob], first_player=0)
    for n, text in enumerate(["Good luck!", "You too. Nice opening", "https://example.com " * 3]):
        beside_playwright(
            chat.chat_post,
            user=(ann, bob)[n % 2],
            kind="game",
            place_id=game.pk,
            room="players",
            text=text,
        )
    SHOTS.mkdir(exist_ok=True)
    context, page = signed_in(browser, asgi_server, ann)
    sockets = []
    # Every page of a signed-in player also opens /ws/me/ (their own alerts, issue 20):
    # what is counted here are the page's own sockets, which the chat shares.
    page.on(
        "websocket",
        lambda socket: None if socket.url.endswith("/ws/me/") else sockets.append(socket.url),
    )
    try:
        for width, height in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            sockets.clear()
            open_chat(page, f"{asgi_server}/game/{game.pk}/")
            page.wait_for_load_state("load")
            assert sockets == [f"{asgi_server.replace('http', 'ws')}/ws/game/{game.pk}/"]
            page.wait_for_selector("#board > *", state="attached")
            page.screenshot(path=str(SHOTS / f"game-{width}.png"), full_page=True)
            page.screenshot(path=str(SHOTS / f"game-{width}-first-screen.png"))
            if width > 800:
                continue
            # On a phone a whole move fits the first screen (as without chat), the chat below.
            for selector in ("#board", "#status", "#chooser", "#hand"):
                box = page.locator(selector).bounding_box()
                assert box and box["y"] + box["height"] <= height + 0.5, selector
            chat_top = page.locator("[data-chat]").bounding_box()["y"]
            assert chat_top >= page.locator("#hand").bounding_box()["y"]
        beside_playwright(
            chat.chat_post, user=bob, kind="lobby", place_id=None, room="lobby", text="Anyone?"
        )
        beside_playwright(games.game_resign, game_id=game.pk, user=bob)
        for width, height in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme="dark" if width < 800 else "light")
            for name, path in (("lobby", "/play/"), ("over", f"/game/{game.pk}/")):
                sockets.clear()
                open_chat(page, asgi_server + path)
                page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
                # The chat rides on the page's one socket (over: the chat opens it itself).
                assert [url.split("/ws/")[1] for url in sockets] == [
                    path.replace("/play/", "lobby/").lstrip("/")
                ]
            page.goto(f"{asgi_server}/games/{game.pk}/replay/")
            page.screenshot(path=str(SHOTS / f"replay-{width}.png"), full_page=True)
    finally:
        context.close()
