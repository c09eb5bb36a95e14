"""Whole games through the real UI in Chromium, against the real ASGI server and worker."""

from __future__ import annotations

import json
import re
import time

import pytest

from games.models import Game
from tests.games.conftest import live_game
from tests.games.pages import (
    PATIENCE,
    hand,
    plant_step,
    play_topiary_turn,
    status,
    take_step,
    wait_for_status,
)
from tests.support.browser import signed_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.celery,
    pytest.mark.slow,
]


def see_a_pending_take(viewer, take, mover: int) -> None:
    """Opponent or spectator: the visitor, the gap and four backs, never the tile taken."""
    wait_for_status([viewer], lambda text: f"took {take.cell}, choosing" in text)
    assert viewer.locator(f'#board [data-cell="{take.cell}"] .gap').count() == 1
    assert viewer.locator(f'#board .visitor[data-position="{take.position}"]').count() == 1
    assert viewer.locator(f'#players li[data-seat="{mover}"] .backs span').count() == 4
    assert viewer.locator("#moves li").last.text_content().endswith(" …")
    assert not re.search(rf"(?<![#0-9A-Za-z]){take.took}(?![0-9])", viewer.content())


def see_what_each_visitor_sees(viewer, game: Game, visitors: int) -> None:
    """Beside each visitor its points, and pointing at it rings the tiles it sees: the
    engine's count of the position (the reveal's once the game is over)."""
    viewer.wait_for_function(
        f"document.querySelectorAll('#board .visitor').length === {visitors}",
        timeout=PATIENCE * 1000,
    )
    game.refresh_from_db()
    final = game.status == Game.Status.FINISHED
    state = game.turns_state() if final else game.engine_state()
    lines = state.sight_lines()
    assert len(lines) == visitors
    for line in lines:
        visitor = viewer.locator(f'#board .visitor[data-position="{line["position"]}"]')
        assert visitor.locator("text.seen").text_content() == str(line["points"])
    richest = max(lines, key=lambda line: (len(line["seen"]), line["position"]))
    viewer.locator(f'#board .visitor[data-position="{richest["position"]}"]').dispatch_event(
        "mouseenter"
    )
    ringed = viewer.locator("#board .tile.sees")
    assert sorted(ringed.evaluate_all("tiles => tiles.map((t) => t.dataset.cell)")) == sorted(
        seen["cell"] for seen in richest["seen"]
    )
    if final:
        for seat, tiles in enumerate(state.scoring_hand_tiles()):
            row = viewer.locator(f'#final-totals tr[data-seat="{seat}"] .open-hand .scores')
            assert sorted(row.evaluate_all("art => art.map((a) => a.dataset.tile)")) == sorted(
                tiles
            )


def test_two_players_play_a_whole_topiary_game_in_the_browser(
    browser, asgi_server, celery_worker, make_player
):
    ann, bob = make_player(), make_player()
    ann_context, ann_page = signed_in(browser, asgi_server, ann)
    bob_context, bob_page = signed_in(browser, asgi_server, bob)

    bob_page.goto(f"{asgi_server}/play/")
    bob_page.wait_for_function(
        "document.querySelector('#no-tables') && !document.querySelector('#tables tr')"
    )
    ann_page.goto(f"{asgi_server}/play/")
    form = ann_page.locator("#new-table-title ~ form")
    form.locator("select[name=kind]").select_option("topiary")
    form.locator("select[name=time_control]").select_option("10+5")
    form.get_by_role("button", name="Create table").click()
    ann_page.wait_for_url("**/game/*/")

    # Bob's lobby was open before the table existed: the row arrives over the lobby socket.
    row = bob_page.locator("#tables tr", has_text=ann.username)
    row.get_by_role("button", name="Join").click()
    bob_page.wait_for_url("**/game/*/")
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE

    watcher_context = browser.new_context(viewport={"width": 800, "height": 900})
    watcher = watcher_context.new_page()
    watcher.goto(f"{asgi_server}/game/{game.pk}/")

    pages = [ann_page, bob_page]
    watched_a_take = False
    for turn in range(16):
        mover = wait_for_status(pages, lambda text: text == "Your turn")
        page, other = pages[mover], pages[1 - mover]
        take = take_step(page, turn)
        if take.cell:
            # The taker holds four tiles: the three it had and the one just turned over.
            assert sorted(hand(page)) == sorted([*take.hand_before, take.took])
            if not watched_a_take:
                watched_a_take = True
                for viewer in (other, watcher):
                    see_a_pending_take(viewer, take, mover)
            if turn == 5:
                # A reload between take and plant comes back to the tile in the hand.
                page.reload()
                taken = page.locator("#hand-tiles .hand-tile.taken")
                taken.wait_for()
                assert taken.get_attribute("data-tile") == take.took
            planted = plant_step(page, take, plant_taken=turn % 2 == 0)
            assert planted == take.took if turn % 2 == 0 else planted in take.hand_before
            planted_tile = f'#board [data-cell="{take.cell}"][data-tile="{planted}"]'
            for viewer in (page, other, watcher):
                viewer.locator(planted_tile).wait_for()
        wait_for_status([page], lambda text: "Game over" in text or "to move" in text)
        if turn == 9:
            see_what_each_visitor_sees(watcher, game, turn + 1)
    assert watched_a_take

    wait_for_status([ann_page], lambda text: "wins" in text or "share the win" in text)
    wait_for_status([bob_page], lambda text: "wins" in text or "share the win" in text)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result
    # One line per turn in the move list, a take and its plant joined.
    moves = bob_page.locator("#moves li")
    assert moves.count() == 16
    assert all(entry["seat"] in (0, 1) for entry in game.moves)
    assert bob_page.locator("#board .visitor").count() == 16
    # The spectator followed every move live and never had a hand to see.
    wait_for_status([watcher], lambda text: "wins" in text or "share the win" in text)
    assert watcher.locator("#moves li").count() == 16
    assert watcher.locator("#hand").is_hidden()
    assert watcher.locator("#final-count").is_visible()
    see_what_each_visitor_sees(watcher, game, 16)
    for context in (ann_context, bob_context, watcher_context):
        context.close()


def test_a_whole_wizards_garden_game_against_a_bot_in_the_browser(
    browser, asgi_server, celery_worker, make_player, tmp_path
):
    human = make_player()
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/play/")
    form = page.locator("#bots-title ~ form")
    form.locator("select[name=kind]").select_option("wizards_garden")
    form.locator("select[name=level]").select_option("greedy")
    form.locator("select[name=time_control]").select_option("10+5")
    form.get_by_role("button", name="Play bots").click()
    page.wait_for_url("**/game/*/")

    turn = 0
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        played = page.locator("#moves li").count()
        if turn == 1:
            # In set-up the board says that its seeds flip nothing.
            assert (
                "Set-up: nothing flips" in page.locator("#board .board-note").first.text_content()
            )
            page.locator("#game").screenshot(path=str(tmp_path / "garden-set-up.png"))
        beds = page.locator("#board g.bed-cell[role=button]")
        beds.nth(turn % beds.count()).click()
        page.locator("#options button").first.click()
        page.locator("#confirm").click()
        # The bot may answer before a status poll sees its turn: wait for the move list instead.
        page.wait_for_function(
            f"document.querySelectorAll('#moves li').length > {played}", timeout=PATIENCE * 1000
        )
        turn += 1
    wait_for_status([page], lambda text: "wins" in text or "share the win" in text)
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED and game.termination == "normal"
    assert game.record and turn == sum(entry["seat"] == 0 for entry in game.moves)
    # The move list marks the set-up seeds and each harvest (its lines, the staff taken).
    notes = [
        item.locator(".move-note").all_inner_texts() for item in page.locator("#moves li").all()
    ]
    assert notes[:4] == [["set-up: flips nothing"]] * 4
    harvests = 0
    for entry, note in zip(game.moves[4:], notes[4:], strict=True):
        facts = entry.get("facts")
        if facts is None:
            assert note == [], entry
            continue
        harvests += 1
        lines = ", ".join(harvest["line"] for harvest in facts["harvest"])
        assert note[0].startswith("harvests the line") and note[0].count(lines) == 1, note
        assert note[0].endswith("takes the Wizard's Staff") == facts["staff"], note
    assert harvests, "the greedy bot harvests when it can"
    page.locator("#moves").screenshot(path=str(tmp_path / "garden-moves.png"))
    print(f"\nScreenshots: {tmp_path}")
    context.close()


def test_a_page_that_misses_a_frame_resyncs_over_http(browser, asgi_server, make_player):
    ann, bob, cat = make_player(), make_player(), make_player()
    game = live_game([ann, bob, cat], first_player=0)
    pages = []
    for user in (ann, bob, cat):
        context, page = signed_in(browser, asgi_server, user)
        pages.append((context, page))
    cat_page = pages[2][1]
    dropped, fetched, greeted = [], [], []

    def lose_the_first_move(route):
        server = route.connect_to_server()

        def to_page(message):
            frame = json.loads(message)
            if frame["type"] == "state":
                greeted.append(frame["ply"])
            if frame["type"] == "move" and frame["ply"] == 1 and not dropped:
                dropped.append(frame["ply"])
                return
            route.send(message)

        server.on_message(to_page)

    cat_page.route_web_socket("**/ws/game/**", lose_the_first_move)
    cat_page.on("request", lambda request: fetched.append(request.url))
    for _, page in pages:
        page.goto(f"{asgi_server}/game/{game.pk}/")
    # Cat's socket must be in the game's group before the first move, or nothing is lost.
    deadline = time.monotonic() + PATIENCE
    while not greeted and time.monotonic() < deadline:
        cat_page.wait_for_timeout(100)
    # The page may be sent its snapshot twice (on connect, and in answer to its hello).
    assert greeted and set(greeted) == {0}
    for turn in range(2):
        mover = pages[turn][1]
        wait_for_status([mover], lambda text: text == "Your turn")
        play_topiary_turn(mover, turn)
    wait_for_status([cat_page], lambda text: text == "Your turn")
    assert dropped == [1]
    assert any(url.endswith(f"/game/{game.pk}/state.json") for url in fetched)
    assert cat_page.locator("#moves li").count() == 2
    for context, _ in pages:
        context.close()


def test_a_drafted_topiary_game_against_a_bot_in_the_browser(
    browser, asgi_server, celery_worker, make_player
):
    human = make_player()
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/play/")
    form = page.locator("#bots-title ~ form")
    form.locator("select[name=kind]").select_option("topiary")
    form.locator("select[name=level]").select_option("greedy")
    form.locator("select[name=time_control]").select_option("1d")
    form.locator("summary").click()
    form.get_by_label("Draft the hands").check()
    form.get_by_role("button", name="Play bots").click()
    page.wait_for_url("**/game/*/")
    game = Game.objects.get()
    assert game.options["draft"] is True

    turn = 0
    checked_keeps = False
    while True:
        wait_for_status([page], lambda text: text == "Your turn" or "Game over" in text)
        if "Game over" in status(page):
            break
        played = page.locator("#moves li").count()
        if "three tiles" in (page.locator("#prompt").text_content() or ""):
            for tile in range(3):
                page.locator(".hand-tile").nth(tile).click()
            page.locator("#confirm").click()
        else:
            if not checked_keeps:
                # The bot's draft reaches this page as a bare "keep"; only our own shows tiles.
                checked_keeps = True
                lines = page.locator("#moves li").all_text_contents()
                keeps = [line for line in lines if ": keep" in line]
                (ours,) = [line for line in keeps if line.startswith(f"{human.username}:")]
                (theirs,) = [line for line in keeps if not line.startswith(f"{human.username}:")]
                assert re.fullmatch(r".+: keep [A-Z][1-5] [A-Z][1-5] [A-Z][1-5]", ours)
                assert theirs.endswith(": keep")
            play_topiary_turn(page, turn)
        page.wait_for_function(
            f"document.querySelectorAll('#moves li').length > {played}", timeout=PATIENCE * 1000
        )
        turn += 1
    wait_for_status([page], lambda text: "wins" in text or "share the win" in text)
    game.refresh_from_db()
    assert checked_keeps and game.moves[0]["move"].startswith("keep")
    # Two keeps and sixteen visitors, one line each, a take joined to its plant.
    lines = page.locator("#moves li").all_text_contents()
    assert len(lines) == 2 + 16
    assert sum(line.startswith(f"{human.username}:") for line in lines) == turn
    context.close()
