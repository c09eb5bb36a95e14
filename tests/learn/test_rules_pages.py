"""The rules pages: their pictures are engine positions, and the rulebook's examples hold."""

from __future__ import annotations

import json
import re

import pytest

from engine.games import GAMES
from learn import selectors
from learn.figures import FIGURES
from tests.ratings.played import make_user, play_game

#: TOPIARY.md's rulebook examples, as the rulebook states them: the seat's score entry.
RULEBOOK = {
    "example-a": {"visitors": 12, "bonus": 0},
    "example-b": {"visitors": 14, "bonus": 3},
    "example-c": {"hand": 3},
    "example-d": {"visitors": 40, "bonus": 0, "hand": 3, "total": 43},
}


def figure(game: str, key: str):
    return next(f for f in FIGURES[game] if f.key == key)


@pytest.mark.parametrize("key", sorted(RULEBOOK))
def test_the_examples_on_the_page_score_as_the_rulebook_says(key):
    shown = figure("topiary", key)
    before, after = shown.states()
    state = after or before
    # What the page draws is this very position (the payload is built from the figure).
    payload = selectors.figure_payload(shown)
    assert payload["before"]["position"] == state.view(shown.seat).to_json()
    entry = state.score()["scores"][shown.seat]
    assert {name: entry[name] for name in RULEBOOK[key]} == RULEBOOK[key]


def test_example_a_and_b_see_what_the_rulebook_says_and_d_scores_visitor_by_visitor():
    a = figure("topiary", "example-a").states()[0].sight_lines()
    assert [s["tile"] for s in a[0]["seen"]] == ["H3", "O4", "S5"]
    b = figure("topiary", "example-b").states()[0].sight_lines()
    assert [s["tile"] for s in b[0]["seen"]] == ["R2", "R3", "N4", "R5"] and b[0]["points"] == 17
    d = figure("topiary", "example-d").states()[0].sight_lines()
    assert [line["points"] for line in d] == [9, 12, 9, 5, 5]
    c = figure("topiary", "example-c").states()[0]
    assert c.scoring_hand_tiles()[0] == ["R1", "W2"]


@pytest.mark.parametrize(
    "shown", [f for figures in FIGURES.values() for f in figures], ids=lambda f: f.key
)
def test_every_caption_states_what_the_engine_says(shown):
    facts = shown.facts()
    assert {name: facts.get(name) for name in shown.claims} == shown.claims
    text = shown.text()
    assert "{" not in text
    if shown.move:
        assert shown.move in text or shown.move.split("/")[0] in text


def test_no_picture_shows_a_face_down_identity():
    for figures in FIGURES.values():
        for shown in figures:
            payload = selectors.figure_payload(shown)
            for side in ("before", "after"):
                position = (payload.get(side) or {}).get("position")
                if position and "garden" in position:
                    cells = [cell for row in position["garden"] for cell in row]
                    assert all(cell in ("?", ".") or cell[0].isupper() for cell in cells), shown.key


@pytest.mark.django_db
@pytest.mark.parametrize("definition", GAMES, ids=lambda d: d.name)
def test_each_rules_page_shows_every_picture_and_every_rule_option(client, definition):
    page = client.get(f"/rules/{definition.name.replace('_', '-')}/")
    assert page.status_code == 200
    html = page.content.decode()
    data = json.loads(re.search(r'id="rules-figures"[^>]*>(.*?)</script>', html, re.S).group(1))
    keys = [f.key for f in FIGURES[definition.name]]
    assert [item["key"] for item in data] == keys
    for shown in FIGURES[definition.name]:
        assert f'data-figure="{shown.key}"' in html, shown.key
    for option in definition.rule_options:
        assert option.label in html
    assert 'href="/learn/"' in html


@pytest.mark.django_db
def test_unknown_games_have_no_rules_page(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/rules/wizards_garden/").status_code == 404


@pytest.mark.django_db
def test_the_lobby_games_replays_and_puzzle_link_to_the_rules(client):
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    lobby = client.get("/play/").content.decode()
    assert 'href="/rules/topiary/"' in lobby and 'href="/rules/wizards-garden/"' in lobby
    assert 'href="/learn/"' in lobby
    for kind, slug in (("topiary", "topiary"), ("wizards_garden", "wizards-garden")):
        game = play_game([ann, bob], kind=kind)
        assert f'href="/rules/{slug}/"' in client.get(f"/game/{game.pk}/").content.decode()
        assert f'href="/rules/{slug}/"' in client.get(f"/games/{game.pk}/replay/").content.decode()
    assert 'href="/rules/topiary/"' in client.get("/puzzles/").content.decode()
    assert 'href="/learn/"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_game_without_a_rules_page_links_to_none(client):
    from engine.games import register, unregister
    from tests.games import three_in_a_row

    register(three_in_a_row.GAME)
    try:
        assert (
            client.get(f"/rules/{three_in_a_row.GAME.name.replace('_', '-')}/").status_code == 404
        )
        ann, bob = make_user("ann"), make_user("bob")
        game = play_game([ann, bob], kind=three_in_a_row.GAME.name)
        client.force_login(ann)
        page = client.get(f"/game/{game.pk}/").content.decode()
        assert "/rules/" not in page.split("</nav>", 1)[1]
        lobby = client.get("/play/").content.decode()
        assert three_in_a_row.GAME.title not in lobby.split('class="learn-note')[1].split("</p>")[0]
    finally:
        unregister(three_in_a_row.GAME.name)
