"""No page or endpoint of the history, replay, record or ratings reveals a running game."""

import re

import pytest
from django.urls import reverse

from engine.games import game_module
from tests.ratings.played import make_user, play_game

pytestmark = pytest.mark.django_db


def hidden_tiles(game) -> set[str]:
    """Every tile identity of a running Topiary game that nobody may know yet."""
    state = game_module(game.kind).state_from_json(game.state)
    position = state.to_json()
    face_down = {cell for row in position["garden"] for cell in row if cell.islower()}
    in_hands = {tile for hand in position["hands"] for tile in hand}
    # Face-down notation, except Elephants: "e3" is also the name of a cell.
    known = {tile for tile in face_down if tile[0] != "e"}
    return known | {tile.upper() for tile in face_down} | in_hands | set(position["box"])


def reveals(body: str, tiles: set[str]) -> set[str]:
    """The hidden tile names that appear in ``body``'s text (not its tag names) as notation."""
    text = re.sub(r"<[a-zA-Z/][^>]*>", " ", body)
    return {tile for tile in tiles if re.search(rf"(?<![A-Za-z0-9]){tile}(?![A-Za-z0-9])", text)}


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_game_in_progress_is_revealed_by_none_of_these_pages(client, signed_in):
    ann, bob = make_user("ann"), make_user("bob")
    finished = play_game([ann, bob])
    running = play_game([ann, bob], plies=6)
    assert running.status == "active"
    if signed_in:
        client.force_login(ann)
    secret = hidden_tiles(running)
    for name in ("games:replay", "games:record"):
        response = client.get(reverse(name, args=[running.pk]))
        # The same answer as for a game that does not exist.
        nothing = client.get(reverse(name, args=[running.pk + 1000]))
        assert response.status_code == nothing.status_code == 404
        assert response.content == nothing.content
        assert not reveals(response.content.decode(), secret)
    pages = [
        reverse("games:history", args=["ann"]),
        reverse("games:history", args=["bob"]) + "?opponent=ann",
        reverse("accounts:profile", args=["ann"]),
        reverse("ratings:index"),
        reverse("ratings:board", args=["topiary"]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200
        body = response.content.decode()
        assert str(running.seed) not in body
        assert not reveals(body, secret)
        assert reverse("games:replay", args=[running.pk]) not in body
    history = client.get(reverse("games:history", args=["ann"]))
    assert [seat.game_id for seat in history.context["page"]] == [finished.pk]
