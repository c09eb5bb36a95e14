"""What a Wizards' Garden move did beyond its notation (issue 41): the engine states it once
when the move is played (a set-up seed flips nothing; a harvest's lines, flowers and the
Wizard's Staff), the site keeps it with the move and every viewer's frame carries it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from engine import wizards_garden as wg
from engine.games import game_definition
from engine.rng import Rng
from games import services
from games.models import Game
from tests.games.conftest import correspondence_game
from tests.games.sockets import Socket, in_own_loop


def _is_state(ply: int):
    return lambda frame: frame["type"] in ("state", "move") and frame["ply"] == ply


def _harvest(state) -> str | None:
    """A legal move of ``state`` that harvests, when there is one (the first by notation)."""
    moves = [move for move in state.legal_moves() if "harvest" in (state.move_facts(move) or {})]
    return moves[0] if moves else None


def _position(first_row: str, staff=None):
    """Seat 0 to move in play, with ``first_row`` as rank 1 (a1..d1) and a white seed on a4;
    the staff's holder has harvested one black flower."""
    harvested = [{"W": 0, "B": int(seat == staff)} for seat in (0, 1)]
    return wg.state_from_json(
        {
            "game": "wizards_garden",
            "board": [list("W..."), list("...."), list("...."), list(first_row)],
            "basket": 20 - 4 - (staff is not None),
            "harvested": harvested,
            "staff": staff,
            "to_move": 0,
            "phase": "play",
        }
    )


def test_the_engine_says_what_a_set_up_seed_and_a_harvest_did():
    definition = game_definition("wizards_garden")
    start = wg.new_game(seed=1, first_player=0)
    assert definition.facts_of(start, start.legal_moves()[0]) == {"setup": True}
    # Black on d1 flips c1 to black: the row a1-d1 is black, a black flower and the staff.
    black_row = _position("BBW.")
    assert definition.facts_of(black_row, "d1B") == {
        "harvest": [{"line": "a1-d1", "flower": "B"}],
        "staff": True,
    }
    # White on d1 leaves c1 black: no line; planting elsewhere harvests nothing.
    assert definition.facts_of(black_row, "d1W") is None
    assert definition.facts_of(black_row, "c2W") is None
    # A white row gives a white flower and leaves the staff where it is.
    assert definition.facts_of(_position("WWB.", staff=1), "d1W") == {
        "harvest": [{"line": "a1-d1", "flower": "W"}],
        "staff": False,
    }
    # The staff's holder harvesting black again keeps it: nothing taken.
    assert definition.facts_of(_position("BBW.", staff=0), "d1B")["staff"] is False
    assert game_definition("topiary").move_facts is None


def test_the_facts_of_every_move_of_a_random_game_agree_with_its_flowers_and_staff():
    rng = Rng(32)
    state = wg.new_game(seed=32, first_player=0)
    seen_staff = False
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        facts = state.move_facts(move)
        after = state.apply(move)
        if facts and "harvest" in facts:
            gained = sum(map(sum, after.harvested)) - sum(map(sum, state.harvested))
            assert len(facts["harvest"]) == gained
            black = sum(entry["flower"] == "B" for entry in facts["harvest"])
            assert after.harvested[state.to_move][1] - state.harvested[state.to_move][1] == black
            assert facts["staff"] == (black > 0 and state.staff != state.to_move)
            seen_staff |= facts["staff"]
        elif state.phase == wg.SETUP:
            assert facts == {"setup": True}
        else:
            assert facts is None
        state = after
    assert seen_staff


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@in_own_loop
async def test_every_viewer_gets_a_harvest_and_a_set_up_seed_with_their_facts(
    redis_url, make_player
):
    ann, bob = [await database_sync_to_async(make_player)() for _ in range(2)]

    def up_to_a_harvest() -> tuple[Game, str]:
        """Random moves until the player to move can harvest; that move is returned."""
        game = correspondence_game([ann, bob], "wizards_garden", first_player=0)
        rng = Rng(5)
        while True:
            state = game.engine_state()
            harvest = _harvest(state) if state.phase == wg.PLAY else None
            if harvest is not None:
                return game, harvest
            move = rng.choice(
                [m for m in state.legal_moves() if "harvest" not in (state.move_facts(m) or {})]
            )
            user = (ann, bob)[state.to_move]
            game = services.move_play(game_id=game.pk, user=user, ply=game.ply, move=move)

    game, harvest = await database_sync_to_async(up_to_a_harvest)()
    assert game.moves[0]["facts"] == {"setup": True} and "facts" not in game.moves[4]
    path = f"/ws/game/{game.pk}/"
    sockets = [await Socket.open(path, user) for user in (ann, bob, None)]
    before = [await socket.until(_is_state(game.ply)) for socket in sockets]
    # The set-up seeds say so in every viewer's list; a plain planting says nothing more.
    for frame in before:
        assert [entry.get("facts") for entry in frame["moves"][:4]] == [{"setup": True}] * 4
        assert all("facts" not in entry for entry in frame["moves"][4:])
    mover = sockets[before[0]["to_move"]]
    await mover.send({"type": "move", "ply": game.ply, "move": harvest})
    after = [await socket.until(_is_state(game.ply + 1)) for socket in sockets]
    expected = game.engine_state().move_facts(harvest)
    assert expected["harvest"]
    for frame in after:
        assert frame["type"] == "move" and frame["move"]["facts"] == expected
        assert frame["moves"][-1]["facts"] == expected
    for socket in sockets:
        await socket.close()
