"""The game, result and replay pages as a player reads them, at 360, 390 and 1280 px (issue 41).

Clocks read in full beside the longest names the site allows, a drawn game called a draw
on every page that shows it, and the replay numbering turns as the record does. Screenshots
of each page and of the parts measured go to the run's temporary directory (printed at the
end with ``-s``) for a person to look at.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest
from django.db import connection

from engine.rng import Rng
from games import services
from games.history_selectors import replay_frames
from games.models import Game
from tests.games.conftest import correspondence_game
from tests.ratings.played import make_user, play_game
from tests.support.browser import session_id
from tests.support.reading import READ_IN_FULL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"360": (360, 740), "390": (390, 844), "1280": (1280, 800)}
SLACK = 0.5
#: With the first player fixed at seat 0, random play from this seed ends in a Wizards'
#: Garden draw: equal flowers, and nobody holds the Wizard's Staff.
DRAWN_WIZARDS_SEED = 2


def in_a_thread(make):
    """Run ``make`` where the games services may push on the channel layer: not in the
    thread where Playwright's loop runs."""

    def run():
        try:
            return make()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def clock_game(users) -> Game:
    """A live Topiary game on a 10+5 clock (the clock reads "10:00", its widest), one move in."""
    game = services.game_create(
        kind="topiary",
        players=users,
        options={},
        rated=False,
        clock_initial=600,
        clock_increment=5,
        correspondence_days=None,
        first_player=0,
    )
    state = game.engine_state()
    return services.move_play(game_id=game.pk, user=users[0], ply=0, move=state.legal_moves()[0])


def wizards_game(users, *, seed: int) -> Game:
    """A scored Wizards' Garden game, seat 0 first, played by random moves from ``seed``."""
    game = correspondence_game(users, "wizards_garden", rated=True, first_player=0)
    rng = Rng(seed)
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        game = services.move_play(
            game_id=game.pk,
            user=users[state.to_move],
            ply=game.ply,
            move=rng.choice(state.legal_moves()),
        )
    services.game_score(game_id=game.pk)
    game.refresh_from_db()
    return game


@pytest.fixture
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("game-pages-screenshots")
    yield folder
    print(f"\nScreenshots: {folder}")


def open_as(browser, asgi_server, user, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": "sessionid", "value": session_id(user), "url": asgi_server}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def test_every_clock_is_read_in_full_beside_the_longest_names(browser, asgi_server, shots):
    names = ["Hawthorn_Hedgewarden", "Boxwood-Bonsai-Baron", "Yew_Labyrinth_Keeper"]
    players = [make_user(name) for name in names]
    two = in_a_thread(lambda: clock_game(players[:2]))
    three = in_a_thread(lambda: clock_game(players))
    problems = []
    for size in SIZES:
        for game, viewer in ((two, players[0]), (two, players[1]), (three, players[2])):
            context, page = open_as(browser, asgi_server, viewer, size)
            try:
                page.goto(f"{asgi_server}/game/{game.pk}/")
                page.wait_for_selector("#players .clock:not(:empty)")
                clocks = page.locator("#players .clock").all_inner_texts()
                assert len(clocks) == len(game.seats.all())
                # A clock reads minutes and seconds in full: "9:57", never "9:5".
                assert all(len(text.split(":")[1]) == 2 for text in clocks), clocks
                where = f"{size} game {game.pk} seen by {viewer.username}"
                problems += [f"{where}: {p}" for p in page.evaluate(READ_IN_FULL, SLACK)]
                page.locator("#players").screenshot(
                    path=str(shots / f"{size}-players-{game.pk}-{viewer.username}.png")
                )
            finally:
                context.close()
    assert not problems, "\n".join(problems)


def test_a_drawn_game_is_called_a_draw_with_no_winner(browser, asgi_server, shots):
    ann, bob = make_user("ann"), make_user("bob")
    game = in_a_thread(lambda: wizards_game([ann, bob], seed=DRAWN_WIZARDS_SEED))
    assert sorted(seat.rank for seat in game.seats.all()) == [1, 1]
    for size in SIZES:
        context, page = open_as(browser, asgi_server, ann, size)
        try:
            page.goto(f"{asgi_server}/game/{game.pk}/")
            page.locator("#result-rows tr").first.wait_for()
            assert page.locator("#result-headline").inner_text() == "Draw"
            assert page.locator("#result").get_by_text("Winner").count() == 0
            assert page.locator("#result-rows tr.winner").count() == 0
            # The player cards share the place too, as the result panel does.
            details = page.locator("#players .player-row .detail").all_inner_texts()
            assert len(details) == 2 and all("rank =1" in detail for detail in details), details
            problems = page.evaluate(READ_IN_FULL, SLACK)
            assert not problems, f"{size} result: " + "\n".join(problems)
            page.locator("#result").screenshot(path=str(shots / f"{size}-result-draw.png"))
            page.screenshot(path=str(shots / f"{size}-game-over-draw.png"), full_page=True)

            page.goto(f"{asgi_server}/games/{game.pk}/replay/")
            final = page.locator(".replay-final")
            assert final.locator(".replay-outcome").inner_text() == "Draw"
            assert final.get_by_text("Winner").count() == 0
            # Both share first place, and the rank says so.
            ranks = final.locator("tbody td:last-child").all_inner_texts()
            assert [rank.split()[-1] for rank in ranks] == ["=1", "=1"]
            problems = page.evaluate(READ_IN_FULL, SLACK)
            assert not problems, f"{size} replay: " + "\n".join(problems)
            final.screenshot(path=str(shots / f"{size}-replay-final-draw.png"))

            page.goto(f"{asgi_server}/games/history/ann/")
            row = page.locator(f'tr.history-game[data-game="{game.pk}"]')
            assert row.locator("td.result").inner_text() == "Draw"
        finally:
            context.close()


def test_the_replay_numbers_turns_as_the_record_does(browser, asgi_server, shots):
    ann, bob = make_user("ann"), make_user("bob")
    game = in_a_thread(lambda: play_game([ann, bob], kind="topiary"))
    turns = len(game.record["moves"])
    frames = replay_frames(game.record)["frames"]
    # Random play takes tiles: some turns are two steps in the replay.
    assert len(frames) - 1 > turns
    for size in SIZES:
        context, page = open_as(browser, asgi_server, ann, size)
        try:
            page.goto(f"{asgi_server}/games/{game.pk}/replay/")
            numbers = page.evaluate(
                """() => [...document.querySelectorAll("#replay-moves > li")].map((li) =>
                  getComputedStyle(li).listStyleType === "none" ? null : li.value)"""
            )
            # One number per turn, 1 to the last; a plant step sits unnumbered under its take.
            assert [n for n in numbers if n is not None] == list(range(1, turns + 1))
            steps = [frame["step"] for frame in frames[1:]]
            assert [n is None for n in numbers] == [step == "plant" for step in steps]
            problems = page.evaluate(READ_IN_FULL, SLACK)
            assert not problems, f"{size} replay: " + "\n".join(problems)
            page.locator("#replay-moves").screenshot(path=str(shots / f"{size}-replay-moves.png"))
            page.screenshot(path=str(shots / f"{size}-replay.png"), full_page=True)
        finally:
            context.close()


#: Random play from this seed (first player seat 0) harvests two columns in one move
#: (``b2B/b1-b4,c1-c4``) among other harvests, and the Wizard's Staff changes hands.
HARVESTING_WIZARDS_SEED = 32


def test_a_wizards_garden_replay_marks_the_set_up_and_each_harvest(browser, asgi_server, shots):
    ann, bob = make_user("ann"), make_user("bob")
    game = in_a_thread(lambda: wizards_game([ann, bob], seed=HARVESTING_WIZARDS_SEED))
    frames = replay_frames(game.record)["frames"]
    expected = []
    for before, frame in pairwise(frames):
        mover = frame["mover"]
        gained = sum(frame["position"]["harvested"][mover].values()) - sum(
            before["position"]["harvested"][mover].values()
        )
        took_staff = frame["position"]["staff"] == mover != before["position"]["staff"]
        expected.append((before["position"]["phase"] == "setup", gained, took_staff))
    assert [setup for setup, _, _ in expected] == [True] * 4 + [False] * (len(expected) - 4)
    assert any(gained > 1 for _, gained, _ in expected)
    assert any(staff for _, _, staff in expected)

    context, page = open_as(browser, asgi_server, ann, "390")
    try:
        page.goto(f"{asgi_server}/games/{game.pk}/replay/")
        items = page.locator("#replay-moves > li")
        assert items.count() == len(expected)
        for index, (setup, gained, took_staff) in enumerate(expected):
            item = items.nth(index)
            move = frames[index + 1]["move"]
            note = item.locator(".move-note")
            if setup:
                assert note.inner_text() == "set-up: flips nothing"
            elif gained:
                text = note.inner_text()
                assert text.startswith("harvests the line"), text
                # One line per flower; where the move names its lines, the same ones.
                named = re.findall(r"[a-d][1-4]-[a-d][1-4]", text)
                assert len(named) == gained, text
                if "/" in move:
                    assert ",".join(named) == move.split("/")[1]
                assert ("takes the Wizard's Staff" in text) == took_staff, text
            else:
                assert note.count() == 0, move
        harvest = next(i for i, (_, gained, _) in enumerate(expected) if gained > 1)
        items.nth(harvest).locator("button").click()
        # The beds the harvest emptied stay marked on the board while that move is shown.
        assert page.locator("#replay-board .bed-cell.harvested").count() == 4 * expected[harvest][1]
        page.locator("#replay-board").screenshot(path=str(shots / "390-replay-harvest.png"))
        page.locator("#replay-moves").screenshot(path=str(shots / "390-replay-garden-moves.png"))
        # The running score in the descriptor's columns (the final table's), the staff a word.
        score = page.locator("#replay-score table")
        heads = score.locator("th").all_text_contents()
        assert heads == ["Player", "Dovetail (W)", "Ravenclaw (B)", "Staff", "Total"], heads
        assert score.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 0.5")
        page.locator("#replay-score").screenshot(path=str(shots / "390-replay-garden-score.png"))
    finally:
        context.close()
