"""After the game in Chromium, against the real ASGI server and Celery worker: the result
panel with the count and the rating change arriving live, and the rematch (issue 20)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import services
from games.models import Game
from ratings.models import RatingChange
from tests.games.conftest import every_player_moves, finished_against_a_bot, live_game, play_out
from tests.games.pages import PATIENCE
from tests.support.browser import signed_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.browser,
    pytest.mark.celery,
    pytest.mark.slow,
]

#: Where screenshots of the panel go (look at them: docs/PAGES.md); off unless set.
SHOTS = os.environ.get("TOPIARY_SCREENSHOTS")


def shoot(page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#result").scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1200, "height": 900})


def panel_row(page, seat: int):
    return page.locator(f'#result-rows tr[data-seat="{seat}"]')


def cells(page, seat: int) -> list[str]:
    return [text.strip() for text in panel_row(page, seat).locator("td").all_text_contents()]


def test_the_result_panel_shows_the_count_and_the_rating_change_once_scored(
    browser, asgi_server, celery_worker, make_player
):
    ann, bob = make_player(), make_player()
    game = every_player_moves(live_game([ann, bob], rated=True, first_player=0), [ann, bob])
    pages = []
    for user in (ann, bob):
        context, page = signed_in(browser, asgi_server, user)
        page.goto(f"{asgi_server}/game/{game.pk}/")
        page.locator("#resign:not([hidden])").wait_for()
        # Set on the page as it is now: still there after the end means no reload.
        page.evaluate("window.sameDocument = true")
        pages.append((context, page))
    ann_page, bob_page = pages[0][1], pages[1][1]
    assert ann_page.locator("#result").is_hidden()

    # Resign asks once more on the page (no browser dialog): Keep playing keeps playing.
    ann_page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog: {dialog.message}"))
    ann_page.locator("#resign").click()
    ann_page.locator('[data-action="resign-cancel"]').click()
    assert ann_page.locator("#resign").is_visible()
    ann_page.locator("#resign").click()
    ann_page.locator('[data-action="resign-confirm"]').click()
    # The worker scores the game and moves the ratings; its frame brings the change.
    for page in (ann_page, bob_page):
        page.locator("#result .rating-change").first.wait_for(timeout=PATIENCE * 1000)
        assert page.evaluate("window.sameDocument") is True

    game.refresh_from_db()
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert len(changes) == 2
    for page in (ann_page, bob_page):
        assert page.locator("#result-headline").text_content() == f"{bob.username} wins"
        assert page.locator("#result-reason").text_content() == f"{ann.username} resigned."
        headers = page.locator("#result thead th:visible").all_text_contents()
        assert headers == ["Player", "Visitors", "Bonus", "Hand", "Total", "Rating"]
        for seat, user in enumerate((ann, bob)):
            score = game.result["scores"][seat]
            change = changes[user.pk]
            row = cells(page, seat)
            assert row[1:5] == [str(score[key]) for key in ("visitors", "bonus", "hand", "total")]
            delta = round(change.after - change.before)
            sign = "+" if delta > 0 else "−" if delta < 0 else "±"
            assert row[5] == f"{round(change.after)} ({sign}{abs(delta)})"
        # The winner's row comes first and says so.
        assert page.locator("#result-rows tr").first.get_attribute("data-seat") == "1"
        assert "Winner" in cells(page, 1)[0]
        # Where to go next: a rematch, a new opponent with the same settings, the lobby, the replay.
        for name in ("Rematch", "New opponent", "Lobby", "Replay"):
            assert page.get_by_role(
                "button" if name == "Rematch" else "link", name=name
            ).is_visible()
    new_opponent = ann_page.get_by_role("link", name="New opponent").get_attribute("href")
    assert "kind=topiary" in new_opponent and "time_control=5%2B3" in new_opponent
    assert new_opponent.endswith("#new-table-title")
    shoot(bob_page, "result-topiary")

    ann_page.get_by_role("link", name="New opponent").click()
    form = ann_page.locator("#new-table-title ~ form")
    assert form.locator("select[name=time_control]").input_value() == "5+3"
    assert form.locator("input[name=rated]").is_checked()
    for context, _ in pages:
        context.close()


def test_both_accept_a_rematch_and_land_in_the_new_game_seats_rotated(
    browser, asgi_server, celery_worker, make_player
):
    ann, bob = make_player(), make_player()
    old = every_player_moves(live_game([ann, bob], first_player=0), [ann, bob])
    services.game_resign(game_id=old.pk, user=bob)
    pages = []
    for user in (ann, bob):
        context, page = signed_in(browser, asgi_server, user)
        page.goto(f"{asgi_server}/game/{old.pk}/")
        page.get_by_role("button", name="Rematch").wait_for()
        pages.append((context, page))
    ann_page, bob_page = pages[0][1], pages[1][1]
    # Both sockets are in the game's groups before the offer goes out.
    for page in (ann_page, bob_page):
        page.wait_for_function("document.body.dataset.live === 'open'")

    ann_page.get_by_role("button", name="Rematch").click()
    ann_page.get_by_text(f"You asked for a rematch: waiting for {bob.username}.").wait_for()
    bob_page.get_by_text(f"{ann.username} wants a rematch.").wait_for(timeout=PATIENCE * 1000)
    shoot(bob_page, "rematch-offered")
    bob_page.get_by_role("button", name="Accept rematch").click()

    for page in (ann_page, bob_page):
        page.wait_for_url(f"**/game/{old.pk + 1}/", timeout=PATIENCE * 1000)
        page.locator("#players li").first.wait_for()
    old.refresh_from_db()
    new = old.rematch
    assert new.pk == old.pk + 1 and new.status == Game.Status.ACTIVE
    assert [seat.user for seat in new.seats.order_by("index")] == [bob, ann]
    # Each page shows its player in the rotated seat.
    assert "(you)" in bob_page.locator('#players li[data-seat="0"]').text_content()
    assert "(you)" in ann_page.locator('#players li[data-seat="1"]').text_content()
    for context, _ in pages:
        context.close()


def test_a_rematch_against_a_bot_starts_at_once(browser, asgi_server, celery_worker, make_player):
    human = make_player()
    old = finished_against_a_bot(human)
    bot = old.seats.get(index=1).user
    context, page = signed_in(browser, asgi_server, human)
    page.goto(f"{asgi_server}/game/{old.pk}/")
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_function(f"location.pathname !== '/game/{old.pk}/'", timeout=PATIENCE * 1000)
    page.locator("#players li").first.wait_for()
    old.refresh_from_db()
    assert page.url.endswith(f"/game/{old.rematch.pk}/")
    assert [seat.user for seat in old.rematch.seats.order_by("index")] == [bot, human]
    context.close()


def test_a_wizards_garden_result_says_why_the_game_ended(
    browser, asgi_server, celery_worker, make_player
):
    ann, bob = make_player(), make_player()
    game = play_out(live_game([ann, bob], kind="wizards_garden"), [ann, bob])
    services.game_score(game_id=game.pk)
    reason = game.engine_state().end_reason()
    context, page = signed_in(browser, asgi_server, ann)
    page.goto(f"{asgi_server}/game/{game.pk}/")
    assert page.locator("#result-reason").text_content() == f"The game ended because {reason}."
    headers = page.locator("#result thead th:visible").all_text_contents()
    assert headers == ["Player", "Dovetail (W)", "Ravenclaw (B)", "Staff", "Total"]
    shoot(page, "result-wizards-garden")
    page.get_by_role("link", name="Replay").click()
    assert page.locator("[data-end-reason]").text_content() == f"The game ended because {reason}."
    context.close()
