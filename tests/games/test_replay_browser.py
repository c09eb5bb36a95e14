"""A finished game's replay in Chromium: stepping with the buttons and the arrow keys."""

import pytest

from games.history_selectors import replay_frames
from tests.games.conftest import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def ply_shown(page) -> str:
    return page.locator("#replay-ply").inner_text()


def test_stepping_through_a_finished_topiary_game(page, asgi_server):
    game = finished_game("topiary")
    frames = replay_frames(game.record)["frames"]
    last = len(frames) - 1
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    assert ply_shown(page).startswith(f"Ply 0 of {last}")
    # The deal: 25 tiles, the centre face up, no visitor yet, every hand revealed.
    assert page.locator("svg.garden g.tile").count() == 25
    assert page.locator("svg.garden g.visitor").count() == 0
    hands = page.locator(".replay-hands li")
    for seat, hand in enumerate(game.initial["hands"]):
        assert " ".join(hand) in hands.nth(seat).inner_text()
    assert page.locator('[data-step="back"]').is_disabled()

    page.get_by_role("button", name="Next ply").click()
    first = frames[1]["move"]
    mover = ["ann", "bob"][frames[1]["mover"]]
    assert ply_shown(page).startswith(f"Ply 1 of {last} · {mover}: {first}")
    assert page.locator("svg.garden g.visitor").count() == 1
    # The visitor just placed shows its sight line and what it sees.
    position = first.split(" ")[0]
    assert page.locator(f'#replay-visitors li.selected[data-position="{position}"]').count() == 1
    (placed,) = frames[1]["visitors"]
    beside = page.locator("svg.garden g.visitor.selected .seen")
    assert beside.text_content() == str(placed["points"])

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert ply_shown(page).startswith(f"Ply 3 of {last}")
    assert page.locator("svg.garden g.visitor").count() == len(frames[3]["visitors"])
    page.keyboard.press("ArrowLeft")
    assert ply_shown(page).startswith(f"Ply 2 of {last}")
    page.get_by_role("button", name="Back one ply").click()
    assert ply_shown(page).startswith(f"Ply 1 of {last}")

    page.keyboard.press("End")
    assert ply_shown(page).startswith(f"Ply {last} of {last}")
    assert page.locator('[data-step="next"]').is_disabled()
    assert page.locator("svg.garden g.visitor").count() == 16
    totals = page.locator("#replay-score tbody tr td:last-child").all_inner_texts()
    assert totals == [str(entry["total"]) for entry in game.record["scores"]]

    page.get_by_role("button", name="First position").click()
    assert ply_shown(page).startswith(f"Ply 0 of {last}")
    page.locator("#replay-moves button").nth(4).click()
    assert ply_shown(page).startswith(f"Ply 5 of {last}")


def test_a_take_and_its_plant_are_two_steps_of_the_replay(page, asgi_server):
    game = finished_game("topiary")
    frames = replay_frames(game.record)["frames"]
    take = next(frame for frame in frames if frame["step"] == "take")
    plant = frames[take["ply"] + 1]
    position, cell = take["move"].split(" ")[:2]
    took = take["move"].split("(took ")[1].rstrip(")")
    mover = ["ann", "bob"][take["mover"]]
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    page.locator("#replay-moves button").nth(take["ply"] - 1).click()
    # The take: the visitor stands, the cell is a gap, the tile is in the taker's hand of four.
    assert ply_shown(page).startswith(f"Ply {take['ply']} of {len(frames) - 1} · {mover}: ")
    assert page.locator(f'svg.garden g.tile[data-cell="{cell}"] .gap').count() == 1
    assert page.locator(f'svg.garden g.visitor[data-position="{position}"]').count() == 1
    held = page.locator(".replay-hands li").nth(take["mover"]).inner_text()
    assert f"(just took {took})" in held
    assert len(held.split(": hand ")[1].split(" (")[0].split()) == 4
    # The plant: its own step, listed under the take, the tile face up in the gap.
    page.keyboard.press("ArrowRight")
    assert ply_shown(page).startswith(f"Ply {plant['ply']} of {len(frames) - 1} · {mover}: =")
    assert page.locator(f'svg.garden g.tile[data-cell="{cell}"] .gap').count() == 0
    planted = plant["move"][1:]
    tile = page.locator(f'svg.garden g.tile[data-cell="{cell}"]')
    assert tile.get_attribute("data-tile") == planted
    assert page.locator("#replay-moves li.current.step-plant").count() == 1
    assert page.locator(f'svg.garden g.visitor.selected[data-position="{position}"]').count() == 1


def test_stepping_through_a_wizards_garden_game(page, asgi_server):
    game = finished_game("wizards_garden")
    page.goto(f"{asgi_server}/games/{game.pk}/replay/")
    assert page.locator("svg.wizards-board g[data-cell]").count() == 16
    assert page.locator("svg.wizards-board circle.seed").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator("svg.wizards-board circle.seed").count() == 1
    page.keyboard.press("End")
    assert ply_shown(page).startswith(f"Ply {game.ply} of {game.ply}")
    seeds = sum(cell != "." for row in game.state["board"] for cell in row)
    assert page.locator("svg.wizards-board circle.seed").count() == seeds
