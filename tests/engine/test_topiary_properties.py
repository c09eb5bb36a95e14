"""Properties of random Topiary games (hypothesis): conservation, quotas, records, no leaks."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import topiary as t
from engine.errors import IllegalMove, NotationError, RecordError
from engine.rng import Rng

OPTIONS = st.builds(
    t.Options,
    players=st.sampled_from([2, 3, 4]),
    corner_diagonals=st.booleans(),
    must_pick=st.booleans(),
    tiebreak=st.sampled_from(["later", "share"]),
    draft=st.booleans(),
)
#: Options, seed, moves' seed and whether takes are played in two steps (pending states).
GAMES = st.tuples(OPTIONS, st.integers(0, 2**64 - 1), st.integers(0, 2**32), st.booleans())


def play(
    options: t.Options, seed: int, moves_seed: int, by_steps: bool = False
) -> tuple[list[t.State], list[str]]:
    """A whole random game: every state, and the moves (or steps) between them."""
    rng = Rng(moves_seed)
    states = [t.new_game(options, seed)]
    moves = []
    while not states[-1].is_over:
        s = states[-1]
        move = rng.choice(s.legal_steps() if by_steps else s.legal_moves())
        moves.append(move)
        states.append(s.apply(move))
    return states, moves


def hand_size(s: t.State, seat: int) -> int:
    return 4 if s.pending is not None and seat == s.to_move else 3


def tiles_everywhere(s: t.State) -> Counter:
    in_flight = s.received[s.to_move] if s.phase == "draft" else ()
    removed = [x for x in t.ALL_TILES if t.TILE_TYPE[x] == s.removed_type]
    return Counter(
        [x % t.FACE_DOWN for x in s.garden if x != t.GAP]
        + [x for hand in s.hands for x in hand]
        + [*s.box, *in_flight, *removed]
    )


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_every_state_keeps_hands_tiles_and_visitor_quotas(game):
    states, _ = play(*game)
    quota = states[0].options.visitors_each
    for s in states:
        assert [len(hand) for hand in s.hands] == [hand_size(s, x) for x in range(s.players)]
        assert tiles_everywhere(s) == Counter(t.ALL_TILES)
        placed = Counter(seat for seat in s.visitors if seat >= 0)
        for seat in range(s.players):
            assert placed[seat] + s.unplaced[seat] == quota
        assert t.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    assert states[-1].unplaced == (0,) * states[-1].players


@settings(max_examples=25, deadline=None)
@given(GAMES, st.lists(st.text(min_size=1, max_size=8), min_size=4, max_size=4))
def test_a_record_always_replays_to_the_same_states_and_score(game, names):
    options = game[0]
    states, moves = play(*game)
    record = t.make_record(states[0], moves, seed=game[1], names=names[: options.players])
    record = json.loads(json.dumps(record))
    assert t.replay(record) == [s for s in states if s.pending is None]
    assert record["scores"] == states[-1].score()["scores"]
    assert record["winners"] == states[-1].score()["winners"]


def _known_to(s: t.State, seat: int | None) -> set[int]:
    known = {x for x in s.garden if x < t.FACE_DOWN}
    if seat is not None:
        known.update(s.hands[seat])
        if s.received is not None:
            known.update(s.received[seat] or ())
            known.update(s.passed_on[seat] or ())
    return known


def _relabel(data, names: dict[str, str]):
    """The JSON with every tile renamed (face up or down) by ``names``."""
    if isinstance(data, dict):
        # A cell like "e4" is no tile, though it reads like one.
        return {k: v if k == "cell" else _relabel(v, names) for k, v in data.items()}
    if isinstance(data, list):
        return [_relabel(v, names) for v in data]
    if isinstance(data, str) and data.upper() in names:
        renamed = names[data.upper()]
        return renamed if data.isupper() else renamed.lower()
    return data


@settings(max_examples=20, deadline=None)
@given(GAMES, st.integers(0, 2**32), st.integers(-1, 3))
def test_states_differing_only_in_hidden_tiles_look_the_same(game, shuffle_seed, viewer):
    """Relabel the tiles a viewer cannot place: the viewer's view must not change a byte."""
    states, _ = play(*game)
    rng = Rng(shuffle_seed)
    seat = None if viewer < 0 or viewer >= game[0].players else viewer
    pending = [s for s in states if s.pending is not None][:3]
    for s in states[:: max(1, len(states) // 5)] + pending:
        hidden = [x for x in s.options.game_tiles(s.removed_type) if x not in _known_to(s, seat)]
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        names = {t.TILE_NAMES[a]: t.TILE_NAMES[b] for a, b in zip(hidden, shuffled, strict=True)}
        twin = t.state_from_json(_relabel(s.to_json(), names))
        view = s.spectator_view() if seat is None else s.view(seat)
        twin_view = twin.spectator_view() if seat is None else twin.view(seat)
        assert twin_view == view
        assert json.dumps(twin_view.to_json(), sort_keys=True) == json.dumps(
            view.to_json(), sort_keys=True
        )
        assert twin_view.public_score() == view.public_score()
        assert twin_view.legal_moves() == view.legal_moves()
        assert twin_view.legal_steps() == view.legal_steps()


@settings(max_examples=20, deadline=None)
@given(GAMES, st.integers(0, 2**32))
def test_views_offer_the_movers_moves_and_sample_back_to_themselves(game, sample_seed):
    states, _ = play(*game)
    pending = [s for s in states if s.pending is not None][:3]
    for s in states[:: max(1, len(states) // 6)] + pending:
        if s.is_over:
            continue
        mover = s.view(s.to_move)
        assert mover.legal_moves() == s.legal_moves()
        assert mover.legal_steps() == s.legal_steps()
        for seat in [*range(s.players), None]:
            view = s.spectator_view() if seat is None else s.view(seat)
            sample = t.sample_state(view, Rng(sample_seed))
            assert (sample.spectator_view() if seat is None else sample.view(seat)) == view
            assert tiles_everywhere(sample) == Counter(t.ALL_TILES)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.sampled_from(["?", "R3", "r3", "c5:S"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=10,
)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*prefix, i))


def _mutated(data, path, value):
    data = json.loads(json.dumps(data))
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@settings(max_examples=80, deadline=None)
@given(GAMES, st.data())
def test_any_damaged_position_or_record_is_a_clear_error_never_a_crash(game, data):
    seed = game[1]
    states, moves = play(*game)
    s = states[data.draw(st.integers(0, len(states) - 1))]
    position = s.to_json()
    path = data.draw(st.sampled_from(list(_paths(position))))
    damaged = _mutated(position, path, data.draw(JSON_VALUES))
    try:
        t.state_from_json(damaged)
    except NotationError as error:
        assert "\n" not in str(error) and str(error)
    record = t.make_record(states[0], moves, seed=seed, names=["a", "b", "c", "d"][: s.players])
    path = data.draw(st.sampled_from(list(_paths(record))))
    try:
        t.replay(_mutated(record, path, data.draw(JSON_VALUES)))
    except RecordError as error:
        assert "\n" not in str(error) and str(error)
    move = data.draw(st.text(max_size=14) | st.sampled_from(s.legal_moves() or ["a1:N"]))
    try:
        s.apply(move)
    except IllegalMove as error:
        assert "\n" not in str(error) and str(error)
