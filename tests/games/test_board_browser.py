"""One board and one socket on every page, in Chromium against real servers.

The game page, the daily puzzle and the replay draw their gardens with the same module
(static/board/topiary.js); the game, lobby and tournament pages keep their socket with
static/live/socket.js. Screenshots of the three boards go to the test run's temp dir.
"""

from __future__ import annotations

import pytest

from games import selectors, services
from games.models import Game
from puzzles import services as puzzle_services
from tests.games.conftest import finished_game, live_game
from tests.games.pages import PATIENCE, shown_ply, status, wait_for_status, wait_past_ply
from tests.puzzles.conftest import WEDNESDAY
from tests.support import servers
from tests.support.browser import in_thread, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each drawn tile as a player sees it: type, value, fill, ink and glyph outline.
TILE_ART = """tiles => tiles.map((tile) => {
  const art = tile.matches('.tile-art') ? tile : tile.querySelector('.tile-art');
  if (!art) return null;
  return {
    cell: tile.dataset.cell ?? null,
    type: art.dataset.type,
    value: art.querySelector('text.value').textContent,
    fill: art.querySelector('rect.tile-face').getAttribute('fill'),
    ink: art.querySelector('text.value').getAttribute('fill'),
    glyph: art.querySelector('path.glyph').getAttribute('d'),
    size: art.querySelector('rect.tile-face').getAttribute('width'),
  };
})"""

VISITORS = """pawns => pawns.map((pawn) => ({
  position: pawn.dataset.position,
  seat: pawn.dataset.seat,
  colour: pawn.querySelector('circle.pawn').getAttribute('fill'),
  points: pawn.querySelector('text.seen').textContent,
  at: [pawn.querySelector('circle.pawn').getAttribute('cx'),
       pawn.querySelector('circle.pawn').getAttribute('cy')],
}))"""


def garden(page, board: str) -> dict:
    tiles = page.locator(f"{board} .tile[data-tile]").evaluate_all(TILE_ART)
    return {
        "tiles": {t["cell"]: t for t in tiles if t},
        "backs": page.locator(f"{board} .tile .tile-back").count(),
        "visitors": sorted(
            page.locator(f"{board} .visitor").evaluate_all(VISITORS), key=lambda v: v["position"]
        ),
    }


def art_by_type(drawn: dict) -> dict:
    return {t["type"]: (t["fill"], t["ink"], t["glyph"], t["size"]) for t in drawn.values()}


def screenshots(page, url: str, wait, name: str, folder) -> None:
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        wait(page)
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)


def test_the_game_page_the_puzzle_and_the_replay_draw_the_same_tiles(page, asgi_server, tmp_path):
    game = finished_game("topiary")
    puzzle = puzzle_services.daily_puzzle_get_or_create(date=WEDNESDAY)
    game_url = f"{asgi_server}/game/{game.pk}/"
    replay_url = f"{asgi_server}/games/{game.pk}/replay/"
    puzzle_url = f"{asgi_server}/puzzles/{WEDNESDAY.isoformat()}/"

    def game_ready(page):
        page.locator("#final-count").wait_for()

    def replay_ready(page):
        page.locator("#replay-board .tile").first.wait_for()
        page.keyboard.press("End")
        page.locator("#replay-board .visitor >> nth=15").wait_for()

    def puzzle_ready(page):
        page.locator("#puzzle-board .tile").first.wait_for()

    page.goto(game_url)
    game_ready(page)
    on_game_page = garden(page, "#board")
    page.goto(replay_url)
    replay_ready(page)
    on_replay = garden(page, "#replay-board")
    page.goto(puzzle_url)
    puzzle_ready(page)
    on_puzzle = garden(page, "#puzzle-board")

    # The finished game: the same position, the same tiles, pawns and points on both pages.
    assert len(on_game_page["tiles"]) + on_game_page["backs"] == 25
    assert on_game_page == on_replay
    assert len(on_game_page["visitors"]) == 16
    # The puzzle is another position: every type both show is drawn alike (glyph, colours,
    # size), and each tile shows its own value.
    shared = art_by_type(on_puzzle["tiles"]).keys() & art_by_type(on_game_page["tiles"]).keys()
    assert len(shared) >= 3
    for kind in shared:
        assert art_by_type(on_puzzle["tiles"])[kind] == art_by_type(on_game_page["tiles"])[kind]
    for cell, tile in on_puzzle["tiles"].items():
        code = puzzle.position["garden"][5 - int(cell[1])]["abcde".index(cell[0])]
        assert tile["type"] + tile["value"] == code

    folder = tmp_path / "boards"
    folder.mkdir()
    screenshots(page, game_url, game_ready, "game", folder)
    screenshots(page, puzzle_url, puzzle_ready, "puzzle", folder)
    screenshots(page, replay_url, replay_ready, "replay", folder)
    print(f"board screenshots in {folder}")
    assert len(list(folder.glob("*.png"))) == 6


@pytest.fixture
def own_web(server_env, server_logs):
    """A web process of this test's own on a fixed port, so it can be stopped and restarted."""
    port = servers.free_port()
    env = {**server_env, "PORT": str(port)}

    def start():
        proc = servers.Process("web", env, server_logs)
        proc.wait_for_port(port)
        return proc

    running = {"proc": start()}

    def restart():
        running["proc"] = start()

    yield f"http://127.0.0.1:{port}", running, restart
    running["proc"].stop()


def test_the_socket_shows_reconnecting_resyncs_when_back_and_stops_on_a_gone_game(
    browser, own_web, make_player
):
    url, running, restart = own_web
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    context, page = signed_in(browser, url, bob)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(f"{url}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == f"{ann.username} to move")
    box = page.locator("[data-live-status]")
    assert box.is_hidden()

    # The server goes away: the page says so and keeps trying.
    running["proc"].stop()
    box.wait_for(state="visible")
    assert "reconnecting" in box.text_content()

    # A move is played meanwhile (over HTTP on another server, as it were): when the server
    # is back, the page says hello with its ply and catches up.
    ply, move = in_thread(lambda: services_first_move(game.pk, ann))
    in_thread(lambda: services.move_play(game_id=game.pk, user=ann, ply=ply, move=move))
    restart()
    wait_past_ply(page, ply)
    box.wait_for(state="hidden", timeout=PATIENCE * 1000)
    assert page.locator("#moves li").first.text_content().startswith(f"{ann.username}: ")

    # The game is gone: after the next drop the page says so once and stops trying.
    in_thread(lambda: Game.objects.filter(pk=game.pk).delete())
    running["proc"].stop()
    box.wait_for(state="visible")
    restart()
    page.wait_for_function(
        "document.querySelector('[data-live-status]').textContent === 'This game does not exist.'",
        timeout=PATIENCE * 1000,
    )

    # Only the game's socket: the page's own socket (/ws/me/) rightly reconnects to the
    # restarted server on its own backoff, which now and then fell in this window.
    def game_socket_tries() -> int:
        return sum(1 for address in sockets if "/ws/game/" in address)

    tries = game_socket_tries()
    page.wait_for_timeout(3000)  # several backoff periods: a loop would have tried again
    assert game_socket_tries() == tries
    context.close()


def services_first_move(game_id: int, user) -> tuple[int, str]:
    frame = selectors.game_state_for(game_id, user)
    place_only = [m for m in frame["legal_moves"] if " " not in m]
    return frame["ply"], (place_only or frame["legal_moves"])[0]


def test_one_tap_sends_the_move_on_the_final_choice_without_confirm(
    browser, asgi_server, make_player
):
    ann, bob = make_player(), make_player()
    game = live_game([ann, bob], first_player=0)
    context, page = signed_in(browser, asgi_server, ann)
    # The preference as base.html renders it (PREFS_CONTRACT): confirm_moves off.
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        " document.body.dataset.confirmMoves = '0'; })"
    )
    page.goto(f"{asgi_server}/game/{game.pk}/")
    wait_for_status([page], lambda text: text == "Your turn")
    target = page.locator('#board .target[data-position="c1:N"]')
    target.click()
    takeable = page.locator("#board .tile.takeable")
    cell = takeable.first.get_attribute("data-cell")
    ply = shown_ply(page)
    takeable.first.click()
    # Taking the tile was the final choice of this step: no Confirm, the step is sent.
    page.locator("#hand-tiles .hand-tile.taken").wait_for(timeout=PATIENCE * 1000)
    assert page.locator("#confirm").is_hidden()
    planted = page.locator("#hand-tiles .hand-tile.offered").first
    tile = planted.get_attribute("data-tile")
    planted.click()
    wait_past_ply(page, ply + 1)
    page.locator(f'#board [data-cell="{cell}"][data-tile="{tile}"]').wait_for()
    game.refresh_from_db()
    assert [entry["seat"] for entry in game.moves] == [0, 0]
    assert status(page) == f"{bob.username} to move"
    context.close()


def test_over_the_rate_limit_the_socket_waits_before_trying_again(
    browser, asgi_server, make_player
):
    context, page = signed_in(browser, asgi_server, make_player())
    tries = []

    def over_the_limit(socket):
        tries.append(socket.url)
        socket.close(code=4429, reason="rate_limited")

    page.route_web_socket("**/ws/lobby/", over_the_limit)
    page.goto(f"{asgi_server}/play/")
    box = page.locator("[data-live-status]")
    box.wait_for(state="visible")
    assert "reconnecting in a moment" in box.text_content()
    page.wait_for_timeout(3000)  # a plain drop would have been retried by now (0.5 s, 1 s, 2 s)
    assert len(tries) == 1
    context.close()
