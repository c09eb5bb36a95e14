"""The game descriptors: what the site derives from them says what the rules say."""

from __future__ import annotations

import dataclasses

import pytest

from engine import analysis, bots, topiary, wizards_garden
from engine.errors import MESSAGES, NotationError
from engine.games import GAMES, game_definition, game_module, register, unregister
from engine.rng import Rng
from tests.games import three_in_a_row


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_each_rule_option_is_an_engine_option_with_the_published_default(game):
    defaults = game.module.Options().to_json()
    for option in game.rule_options:
        assert defaults[option.name] == option.default
        for ticked in (False, True):
            options = {option.name: option.value(ticked)}
            assert (
                game.module.Options.from_json(options).to_json()[option.name]
                == options[option.name]
            )


def test_names_and_aliases_find_the_descriptor_and_its_module():
    assert game_definition("topiary") is topiary.GAME
    assert game_definition("wizards-garden") is wizards_garden.GAME
    assert game_module("wizards_garden") is wizards_garden
    with pytest.raises(NotationError, match="unknown game 'chess'"):
        game_definition("chess")


def test_table_options_and_seat_counts():
    assert (
        topiary.GAME.table_options(3, {"draft": True})
        == topiary.Options(players=3, draft=True).to_json()
    )
    assert topiary.GAME.seat_count({"players": 4}) == 4
    assert wizards_garden.GAME.seat_count({"setup_apart": True}) == 2
    with pytest.raises(NotationError, match="Wizards' Garden is for 2 players"):
        wizards_garden.GAME.table_options(3, {})
    with pytest.raises(NotationError, match="Topiary is for 2 to 4 players"):
        topiary.GAME.table_options(5, {})
    with pytest.raises(NotationError, match="unknown option"):
        wizards_garden.GAME.table_options(2, {"draft": True})


def _topiary_ranks(totals, hands, first_player, tiebreak, forfeited):
    scores = [
        {"seat": seat, "total": total, "hand": hand}
        for seat, (total, hand) in enumerate(zip(totals, hands, strict=True))
    ]
    winners = topiary.winners(totals, hands, first_player, tiebreak)
    options = topiary.Options(players=len(totals), tiebreak=tiebreak).to_json()
    return topiary.GAME.final_ranks(
        scores, winners, first_player=first_player, options=options, forfeited=forfeited
    )


def test_topiary_ranks_by_total_then_hand_then_later_in_turn_order():
    # Turn order 1, 2, 0: among equal totals and hands the later seat ranks higher.
    assert _topiary_ranks([50, 50, 50], [3, 3, 3], 1, "later", [False] * 3) == [1, 3, 2]
    assert _topiary_ranks([50, 50, 50], [3, 3, 3], 1, "share", [False] * 3) == [1, 1, 1]
    assert _topiary_ranks([40, 50, 50], [9, 2, 4], 0, "later", [False] * 3) == [3, 2, 1]


def test_a_forfeited_seat_ranks_last_whatever_it_scored():
    assert _topiary_ranks([60, 50, 40], [0, 0, 0], 0, "later", [True, False, False]) == [3, 1, 2]


def test_wizards_garden_ranks_by_flowers_then_the_staff():
    def ranks(flowers, staff):
        state_scores = [
            {"seat": seat, "total": count, "staff": staff == seat}
            for seat, count in enumerate(flowers)
        ]
        winners = [0] if flowers[0] > flowers[1] else [1] if flowers[1] > flowers[0] else []
        winners = winners or ([staff] if staff is not None else [0, 1])
        return wizards_garden.GAME.final_ranks(
            state_scores, winners, first_player=0, options={}, forfeited=[False, False]
        )

    assert ranks([5, 3], None) == [1, 2]
    assert ranks([4, 4], 1) == [2, 1]
    assert ranks([4, 4], None) == [1, 1]


def test_a_game_registered_at_run_time_brings_its_own_bots_and_analyst():
    # Nothing in engine/ names the game: the bots and the analysis find them in its
    # descriptor alone.
    def first_cell(view, rng, budget, iterations):
        return view.legal_steps()[0]

    def corner_is_best(view, played, rng):
        return {move: [float(move == "a1")] for move in view.legal_moves()}

    game = dataclasses.replace(
        three_in_a_row.GAME, bots={"greedy": first_cell}, analyst=corner_is_best
    )
    register(game)
    try:
        state = three_in_a_row.new_game(seed=1)
        view = state.view(state.to_move)
        assert bots.choose_move(view, "greedy", rng=Rng(1)) == "a1"
        assert bots.choose_move(view, "random", rng=Rng(1)) in view.legal_steps()
        with pytest.raises(ValueError, match="no strong bot plays"):
            bots.choose_move(view, "strong", rng=Rng(1))
        verdict = analysis.analyse_turn(view, "b1", "game/1", 0)
        assert (verdict["best"], verdict["lost"], verdict["se"]) == ("a1", 1.0, None)
        assert verdict["candidates"] == len(view.legal_moves())
    finally:
        unregister(game.name)
    with pytest.raises(TypeError, match="view"):
        bots.choose_move(view, "random", rng=Rng(1))


def test_a_game_may_not_give_a_known_error_code_another_message():
    before = dict(MESSAGES)
    with pytest.raises(ValueError, match="'game_over' already says something else"):
        dataclasses.replace(three_in_a_row.GAME, messages={"game_over": "it is all over"})
    assert before == MESSAGES
