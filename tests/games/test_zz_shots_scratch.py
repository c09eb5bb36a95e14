import pytest
from games import seeks, services
from tests.support.browser import signed_in

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_shots(browser, asgi_server, make_player):
    ann, bob, cat = make_player("annabel"), make_player("bob"), make_player("cat")
    seeks.seek_place(user=bob, kind="topiary", players=4, time_control="5+3", bots_after=60)
    seeks.seek_place(user=cat, kind="wizards_garden", players=2, time_control="3+2", rating_range=200)
    services.game_create(kind="topiary", players=[ann, bob], options={}, rated=False, clock_initial=None, clock_increment=None, correspondence_days=3)
    services.challenge_create(user=cat, opponent_username=ann.username, kind="topiary", rated=True, clock_initial=300, clock_increment=3, correspondence_days=None)
    for width, height in ((390, 844), (1280, 900)):
        context, page = signed_in(browser, asgi_server, ann)
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{asgi_server}/play/")
        page.wait_for_selector("body[data-live=open]")
        page.locator('button.quick-cell[data-kind="topiary"][data-players="3"][data-time-control="3+2"]').click()
        page.wait_for_selector('button.quick-cell[aria-pressed="true"]')
        page.wait_for_selector(".alert-note")
        page.screenshot(path=f"/tmp/i20a_shots/lobby-{width}.png", full_page=True)
        page.screenshot(path=f"/tmp/i20a_shots/lobby-top-{width}.png")
        page.goto(f"{asgi_server}/")
        page.wait_for_selector(".alert-note")
        page.screenshot(path=f"/tmp/i20a_shots/home-{width}.png", full_page=True)
        context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{asgi_server}/play/")
    page.screenshot(path="/tmp/i20a_shots/lobby-anon-390.png", full_page=True)
    context.close()
