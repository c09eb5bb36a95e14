"""The site's translations of the engine (games.engine_text): an error in English is
exactly the engine's message, and every text the engine hands the site to show is marked
for the catalogue where its game writes it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import engine
from engine import topiary, wizards_garden
from engine.definition import SEATS_RANGE
from engine.errors import EngineError, IllegalMove, RecordError
from engine.games import GAMES
from games import engine_text
from tests.support.positions import emptied_basket


@functools.cache
def _marked() -> frozenset[str]:
    """Every text the engine's sources mark with ``gettext_noop``, as ``make messages`` reads
    them (literal first arguments: a text built at run time is never gathered)."""
    texts = set()
    for path in Path(engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "gettext_noop"
                and isinstance(node.args[0], ast.Constant)
            ):
                texts.add(node.args[0].value)
    return frozenset(texts)


def _error(call, *args, **kwargs) -> EngineError:
    with pytest.raises(EngineError) as caught:
        call(*args, **kwargs)
    return caught.value


def _sample_errors() -> list[EngineError]:
    start = topiary.new_game(topiary.Options(players=2), seed=1, first_player=0)
    record = topiary.make_record(start, ["c5:S"], seed=1, names=["ann", "bob"])
    garden = wizards_garden.new_game(seed=1, first_player=0).apply("a1W")
    return [
        _error(start.apply, "a1:Q"),
        _error(start.apply, "c5:S", seat=1),
        _error(start.apply("c5:S").apply, "c5:S"),
        _error(topiary.replay, {**record, "moves": ["c5:S", "c5:S"]}),
        _error(topiary.replay, {**record, "seed": 2}),
        _error(topiary.state_from_json, {"game": "chess"}),
        _error(garden.apply, "a1B"),
        _error(wizards_garden.GAME.table_options, 3, {}),
        IllegalMove("a game of the house's own: its error has no code"),
    ]


def test_in_english_the_site_says_what_the_engine_says():
    for error in _sample_errors():
        assert engine_text.error_message(error) == str(error)


def test_the_engine_words_in_params_are_translated_with_the_message(monkeypatch):
    # A "translation" that shouts the engine's words and leaves the templates as they are.
    shout = {text: text.upper() for game in GAMES for text in _shown_texts(game)}
    monkeypatch.setattr(engine_text, "gettext", lambda text: shout.get(text, text))
    over = emptied_basket("over")
    error = _error(wizards_garden.state_from_json(over).apply, "c2W")
    assert error.code == "wg_game_over"
    assert engine_text.error_message(error) == "the game is over: THE BASKET IS EMPTY"
    error = _error(wizards_garden.GAME.table_options, 3, {})
    assert engine_text.error_message(error) == "Wizards' Garden is for 2 players"


def test_a_wrapped_error_says_the_inner_one_in_the_same_language(monkeypatch):
    inner = _error(topiary.new_game(topiary.Options(), seed=1).apply, "a1:Q")
    wrapped = RecordError(code="record_initial", inner=inner)
    said = engine_text.error_message
    # The inner error is said again (translated), not taken from the English params.
    monkeypatch.setattr(
        engine_text, "error_message", lambda error: "INNER" if error is inner else said(error)
    )
    assert said(wrapped) == "initial: INNER"
    assert said(RecordError.at_ply(inner, 3)) == f"ply 3: {inner}"


def _shown_texts(game) -> list[str]:
    texts = [text for option in game.rule_options for text in (option.label, option.help)]
    texts += [text for column in game.score_columns for text in (column.label, column.flag)]
    texts += [*game.end_reasons, *game.words]
    return [text for text in texts if text]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_text_a_game_definition_shows_is_marked_for_the_catalogue(game):
    assert _shown_texts(game)
    missing = [text for text in _shown_texts(game) if text not in _marked()]
    assert missing == []
    assert game.title not in _marked()  # a name, not translated


def test_the_tile_type_names_and_the_seat_range_are_marked_for_the_catalogue():
    assert set(topiary.TYPE_NAMES.values()) == set(topiary.GAME.words) <= _marked()
    assert SEATS_RANGE in _marked() and topiary.GAME.seats_text == "2 to 4"
