"""The engine against an independent referee (oracle_topiary.py) over random Topiary games.

At every ply of seeded random games, for every combination of options, and on positions
built directly, the engine and the oracle must agree on the legal moves, the score, the
position after a move (and on which moves are refused), and what each seat's view may show;
also on perft counts, the CLI's answers and the shared examples. Seeds are fixed so a failure
names the seed and ply that reproduce it.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import topiary as t
from engine.errors import IllegalMove
from engine.rng import Rng
from tests.engine import EXAMPLES
from tests.engine import oracle_topiary as oracle

REPO = Path(__file__).resolve().parents[2]
TILE = re.compile(r"^[EHNOPRSW][1-5]$", re.IGNORECASE)

OPTION_SETS = [
    {
        "players": players,
        "corner_diagonals": corner_diagonals,
        "must_pick": must_pick,
        "tiebreak": tiebreak,
        "draft": draft,
    }
    for players, corner_diagonals, must_pick, tiebreak, draft in itertools.product(
        [2, 3, 4], [True, False], [False, True], ["later", "share"], [False, True]
    )
]
SEEDS_PER_OPTION_SET = 4


def option_id(options: dict) -> str:
    """A readable test id for a set of options."""
    return "{players}p-corners{corner_diagonals}-pick{must_pick}-{tiebreak}-draft{draft}".format(
        **options
    )


def where(seed: int, ply: int, position: dict) -> str:
    """What a failure message needs to reproduce the case."""
    return f"seed={seed} ply={ply} position={json.dumps(position)}"


def normalised(position: dict) -> dict:
    """A position with its tile sets (hands, box, draft piles) written in one order."""
    result = oracle.copy_of(position)
    result["hands"] = [sorted(hand) for hand in result["hands"]]
    if "box" in result:
        result["box"] = sorted(result["box"])
    if result.get("draft"):
        for key in ("received", "passed_on"):
            result["draft"][key] = [None if p is None else sorted(p) for p in result["draft"][key]]
    return result


def engine_apply(state: t.State, move: str) -> dict | None:
    """The engine's position after ``move``, or None if it refuses the move."""
    try:
        return state.apply(move).to_json()
    except IllegalMove:
        return None


def oracle_apply(position: dict, move: str) -> dict | None:
    """The oracle's position after ``move``, or None if it refuses the move."""
    try:
        return oracle.apply(position, move)
    except oracle.Illegal:
        return None


def moves_to_try(position: dict, legal: list[str], rng: Rng) -> list[str]:
    """Legal moves of every form (place only, ``*``, a hand tile) and some arbitrary strings.

    The arbitrary ones mix any position, any cell and any plant (``*``, a hand tile, a tile
    from anywhere, the very tile under the cell), so most are illegal for some reason.
    """
    if position["phase"] == "draft":
        everything = sorted(oracle.all_tiles_in(position))
        odd = ["keep " + " ".join(rng.choice(everything) for _ in range(3)) for _ in range(3)]
        return [rng.choice(legal) for _ in range(3)] + odd
    place_only = [m for m in legal if " " not in m]
    take_any = [m for m in legal if m.endswith("=*")]
    take_hand = [m for m in legal if " " in m and not m.endswith("=*")]
    chosen = [rng.choice(group) for group in (place_only, take_any, take_hand) if group]
    garden = oracle.garden_dict(position)
    hand = position["hands"][position["to_move"]]
    every_tile = sorted(oracle.all_tiles_in(position))
    for _ in range(4):
        place = rng.choice(oracle.all_positions(True))
        cell = rng.choice(sorted(garden))
        plant = rng.choice(["*", rng.choice(hand), rng.choice(every_tile), garden[cell].upper()])
        chosen.append(rng.choice([place, f"{place} {cell}={plant}"]))
    chosen += ["c3", "a1:N a1 a2", "a1:N a1=", "a1:N z9=*", "keep E1 E2 E3"]
    return chosen


def check_views(state: t.State, position: dict, context: str, rng: Rng) -> None:
    """Each view shows the public position, the viewer's own hand and nothing else.

    TOPIARY.md: "Nobody during the game: face-down identities, other hands, the box."
    After the game the spec lets the record reveal everything, so only play and draft
    positions are held to it.
    """
    garden = oracle.garden_dict(position)
    scores = oracle.score(position)["scores"]
    for seat in [*range(state.players), None]:
        view = state.view(seat) if seat is not None else state.spectator_view()
        shown = view.to_json()
        for key in ("options", "removed_type", "visitors", "unplaced", "to_move", "phase"):
            assert shown[key] == position[key], f"seat {seat} view {key}; {context}"
        masked = {c: "?" if oracle.is_face_down(x) else x for c, x in garden.items()}
        assert shown["garden"] == oracle.garden_rows(masked), f"seat {seat} garden; {context}"
        for other, hand in enumerate(shown["hands"]):
            expected = position["hands"][other] if other == seat else ["?"] * oracle.HAND_SIZE
            assert sorted(hand) == sorted(expected), f"seat {seat} hand {other}; {context}"
        for row, public in zip(scores, view.public_score()["scores"], strict=True):
            hand = row["hand"] if row["seat"] == seat else None
            total = row["visitors"] + row["bonus"] + (hand or 0)
            assert public == {**row, "hand": hand, "total": total}, f"seat {seat}; {context}"
        mover_moves = oracle.legal_moves(position) if seat == position["to_move"] else set()
        assert set(view.legal_moves()) == mover_moves, f"seat {seat} moves; {context}"
        if position["phase"] == "over":
            continue
        tiles_shown = {text.upper() for text in strings_in(shown) if TILE.match(text)}
        allowed = oracle.tiles_known_to(position, seat)
        assert tiles_shown <= allowed, f"seat {seat} sees {tiles_shown - allowed}; {context}"
        if not position["options"]["draft"]:
            check_view_ignores_hidden_tiles(state, position, seat, context, rng)


def check_view_ignores_hidden_tiles(
    state: t.State, position: dict, seat: int | None, context: str, rng: Rng
) -> None:
    """Dealing the viewer's unknown tiles differently changes nothing in its view."""
    garden = oracle.garden_dict(position)
    hidden_cells = [c for c in sorted(garden) if oracle.is_face_down(garden[c])]
    hidden = [garden[c].upper() for c in hidden_cells]
    other_seats = [s for s in range(state.players) if s != seat]
    for other in other_seats:
        hidden += position["hands"][other]
    hidden += position["box"]
    rng.shuffle(hidden)
    redealt = oracle.copy_of(position)
    for cell in hidden_cells:
        garden[cell] = hidden.pop().lower()
    redealt["garden"] = oracle.garden_rows(garden)
    for other in other_seats:
        redealt["hands"][other] = [hidden.pop() for _ in range(oracle.HAND_SIZE)]
    redealt["box"] = hidden
    other_state = t.state_from_json(redealt)
    other_view = other_state.view(seat) if seat is not None else other_state.spectator_view()
    view = state.view(seat) if seat is not None else state.spectator_view()
    assert json.dumps(view.to_json(), sort_keys=True) == json.dumps(
        other_view.to_json(), sort_keys=True
    ), f"seat {seat}'s view depends on hidden tiles; {context}"


def strings_in(value) -> list[str]:
    """Every string anywhere in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*strings_in(k), *strings_in(v)]]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []


def check_deal(state: t.State, options: dict, context: str) -> None:
    """The seeded deal is a deal TOPIARY.md describes."""
    position = state.to_json()
    garden = oracle.garden_dict(position)
    face_up = [c for c, x in garden.items() if not oracle.is_face_down(x)]
    assert face_up == ["c3"], context
    players = options["players"]
    if players == 4:
        assert position["removed_type"] is None, context
        in_game = 40
    else:
        assert position["removed_type"] in oracle.TYPES, context
        in_game = 35
    tiles = [x.upper() for x in garden.values()] + position["box"]
    tiles += [tile for hand in position["hands"] for tile in hand]
    if options["draft"]:
        tiles += position["draft"]["received"][position["to_move"]]
    assert len(tiles) == len(set(tiles)) == in_game, context
    assert all(oracle.tile_type(x) != position["removed_type"] for x in tiles), context
    assert all(len(hand) == oracle.HAND_SIZE for hand in position["hands"]), context
    assert position["unplaced"] == [oracle.VISITORS_EACH[players]] * players, context
    assert position["visitors"] == {}, context
    order = oracle.turn_order(position)
    if options["draft"]:
        assert position["phase"] == "draft" and position["to_move"] == order[-1], context
        assert position["box"] == [], context
    else:
        assert position["phase"] == "play" and position["to_move"] == order[0], context


def play_and_compare(options: dict, seed: int) -> int:
    """One random game, checked at every ply; returns how many positions were compared."""
    state = t.new_game(t.Options.from_json(options), seed)
    rng = Rng(f"differential-{seed}")
    check_deal(state, options, f"seed={seed} options={options}")
    ply = 0
    while True:
        position = state.to_json()
        context = where(seed, ply, position)
        legal = state.legal_moves()
        assert legal == sorted(set(legal)), f"moves not sorted or repeated; {context}"
        expected_moves = oracle.legal_moves(position)
        assert set(legal) == expected_moves, (
            f"engine only: {sorted(set(legal) - expected_moves)[:10]} "
            f"oracle only: {sorted(expected_moves - set(legal))[:10]}; {context}"
        )
        assert state.score() == oracle.score(position), f"score; {context}"
        assert state.is_over == (position["phase"] == "over"), context
        check_views(state, position, context, rng)
        if not options["draft"]:
            bare = {k: v for k, v in position.items() if k not in ("first_player", "box")}
            assert normalised(t.state_from_json(bare).to_json()) == normalised(position), (
                f"first player or box not recovered; {context}"
            )
        if state.is_over:
            return ply + 1
        for move in moves_to_try(position, legal, rng):
            got = engine_apply(state, move)
            expected = oracle_apply(position, move)
            assert (got is None) == (expected is None), (
                f"move {move!r}: engine {'refuses' if got is None else 'accepts'}; {context}"
            )
            if expected is not None:
                assert normalised(got) == normalised(expected), f"after {move!r}; {context}"
                if position["phase"] == "play":
                    assert state.took(move) == taken_by(position, move), f"{move!r}; {context}"
        state = state.apply(rng.choice(legal))
        ply += 1


def taken_by(position: dict, move: str) -> str | None:
    """The tile a legal play move takes, read off the garden."""
    _, _, rearrange = move.partition(" ")
    if not rearrange:
        return None
    return oracle.garden_dict(position)[rearrange.split("=")[0]].upper()


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_random_games_agree_with_the_oracle_at_every_ply(options):
    positions = 0
    for index in range(SEEDS_PER_OPTION_SET):
        seed = 1000 * OPTION_SETS.index(options) + index
        positions += play_and_compare(options, seed)
    assert positions >= SEEDS_PER_OPTION_SET * 16


def random_position(rng: Rng) -> dict:
    """A position built directly, not played: any deal, any face-up tiles, any visitors.

    Owners are drawn freely within each seat's quota (as in puzzles, where counts differ
    and seats without visitors are skipped); ``first_player`` is given, since uneven
    counts do not tell who started.
    """
    players = rng.choice([2, 3, 4])
    options = {
        "players": players,
        "corner_diagonals": rng.choice([True, False]),
        "must_pick": rng.choice([True, False]),
        "tiebreak": rng.choice(["later", "share"]),
        "draft": False,
    }
    removed = None if players == 4 else rng.choice(oracle.TYPES)
    tiles = [kind + value for kind in oracle.TYPES for value in "12345" if kind != removed]
    rng.shuffle(tiles)
    face_up_chance = rng.random()
    garden = {}
    for x, y in itertools.product(range(5), range(5)):
        cell, tile = oracle.cell_name(x, y), tiles.pop()
        garden[cell] = tile if cell == "c3" or rng.random() < face_up_chance else tile.lower()
    hands = [[tiles.pop() for _ in range(oracle.HAND_SIZE)] for _ in range(players)]
    unplaced = [oracle.VISITORS_EACH[players]] * players
    free = list(oracle.all_positions(options["corner_diagonals"]))
    rng.shuffle(free)
    visitors = {}
    for _ in range(rng.randbelow(sum(unplaced) + 1)):
        owner = rng.choice([seat for seat in range(players) if unplaced[seat] > 0])
        visitors[free.pop()] = owner
        unplaced[owner] -= 1
    movers = [seat for seat in range(players) if unplaced[seat] > 0]
    return {
        "game": "topiary",
        "options": options,
        "removed_type": removed,
        "garden": oracle.garden_rows(garden),
        "visitors": visitors,
        "unplaced": unplaced,
        "hands": hands,
        "to_move": rng.choice(movers) if movers else rng.randbelow(players),
        "phase": "play" if movers else "over",
        "first_player": rng.randbelow(players),
        "box": tiles,
    }


@pytest.mark.parametrize("batch", range(4))
def test_random_positions_agree_with_the_oracle(batch):
    rng = Rng(f"positions-{batch}")
    for index in range(150):
        position = random_position(rng)
        context = f"batch={batch} index={index} position={json.dumps(position)}"
        state = t.state_from_json(position)
        assert set(state.legal_moves()) == oracle.legal_moves(position), f"moves; {context}"
        assert state.score() == oracle.score(position), f"score; {context}"
        if state.is_over:
            continue
        check_views(state, position, context, rng)
        for move in moves_to_try(position, state.legal_moves(), rng):
            got = engine_apply(state, move)
            expected = oracle_apply(position, move)
            assert (got is None) == (expected is None), f"move {move!r}; {context}"
            if expected is not None:
                assert normalised(got) == normalised(expected), f"after {move!r}; {context}"


def positions_for_perft() -> list[tuple[str, dict]]:
    """Positions along seeded games: a deal, a draft, early, middle and last plies."""
    found = []
    for options, seed, plies in [
        (t.Options(players=2), 7, 0),
        (t.Options(players=2, draft=True), 11, 1),
        (t.Options(players=3, must_pick=True), 8, 5),
        (t.Options(players=4, corner_diagonals=False), 9, 10),
        (t.Options(players=2), 10, 15),
    ]:
        state = t.new_game(options, seed)
        rng = Rng(seed)
        for _ in range(plies):
            state = state.apply(rng.choice(state.legal_moves()))
        found.append((f"{options.players}p-seed{seed}-ply{plies}", state.to_json()))
    return found


@pytest.mark.parametrize("name,position", positions_for_perft(), ids=lambda v: v)
def test_perft_agrees_with_the_oracle(name, position):
    state = t.state_from_json(position)
    for depth in (1, 2):
        assert t.perft(state, depth) == oracle.perft(position, depth), f"{name} depth {depth}"


def cli(*args: str, position: dict | None = None):
    """What ``python -m engine topiary ARGS`` prints (for ``position`` on stdin), as JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", "topiary", *args],
        cwd=REPO,
        input=None if position is None else json.dumps(position),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"{args}: {done.stderr.strip()}"
    return json.loads(done.stdout)


def test_cli_perft_agrees_with_the_oracle(tmp_path):
    name, position = positions_for_perft()[3]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    answer = cli("perft", "2", str(path))
    assert (answer["depth"], answer["nodes"]) == (2, oracle.perft(position, 2)), name


def test_cli_moves_score_and_apply_agree_with_the_oracle():
    name, position = positions_for_perft()[3]
    assert set(cli("moves", position=position)) == oracle.legal_moves(position), name
    assert cli("score", position=position) == oracle.score(position), name
    rng = Rng(name)
    for move in moves_to_try(position, sorted(oracle.legal_moves(position)), rng)[:3]:
        after = cli("apply", move, position=position)
        assert normalised(after) == normalised(oracle.apply(position, move)), f"{name} {move}"


def masked(position: dict, hands_known: set[int]) -> dict:
    """The position as NOTATION.md writes it for a viewer: face-down cells ``?`` and every hand
    outside ``hands_known`` ``?``."""
    garden = oracle.garden_dict(position)
    shown = oracle.copy_of(position)
    shown["garden"] = oracle.garden_rows(
        {cell: "?" if oracle.is_face_down(text) else text for cell, text in garden.items()}
    )
    shown["hands"] = [
        hand if seat in hands_known else ["?"] * oracle.HAND_SIZE
        for seat, hand in enumerate(position["hands"])
    ]
    for engine_only in ("box", "first_player"):
        shown.pop(engine_only)
    return shown


def test_cli_scores_a_position_whose_hands_are_known_but_not_its_face_down_tiles():
    """NOTATION.md: "Position (a full state, or one player's view of it)" has ``?`` for "face
    down, identity unknown to the viewer", and "Score (what `score` prints for a position whose
    hands are known)". Face-down tiles score nothing, so their identities are not needed."""
    name, position = positions_for_perft()[3]
    every_hand = set(range(position["options"]["players"]))
    assert cli("score", position=masked(position, every_hand)) == oracle.score(position), name


def test_cli_lists_the_moves_of_the_player_to_move_from_their_view():
    """NOTATION.md: "Position (a full state, or one player's view of it)", and `moves`: "the
    legal moves of the player to move": they need only where the face-down tiles are and the
    mover's own hand (a ``*`` plant names no identity)."""
    name, position = positions_for_perft()[3]
    view = masked(position, {position["to_move"]})
    assert set(cli("moves", position=view)) == oracle.legal_moves(position), name


def example_files() -> list[Path]:
    return sorted(EXAMPLES.glob("topiary_*.json"))


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.stem)
def test_shared_examples_agree_with_both(path):
    example = json.loads(path.read_text())
    position = example["position"]
    state = t.state_from_json(position)
    if "score" in example:
        assert oracle.score(position) == example["score"]
        assert state.score() == example["score"]
    if "moves" in example:
        assert oracle.legal_moves(position) == set(example["moves"])
        assert set(state.legal_moves()) == set(example["moves"])
    assert set(state.legal_moves()) == oracle.legal_moves(position)
    assert state.score() == oracle.score(position)


def line_position(cells: dict[str, str], visitors: dict[str, int], hands) -> dict:
    """A bare position for the oracle alone: the given cells, every other cell face down."""
    garden = {oracle.cell_name(x, y): "e1" for x in range(5) for y in range(5)}
    garden.update(cells)
    return {
        "options": {"players": len(hands)},
        "garden": oracle.garden_rows(garden),
        "visitors": visitors,
        "hands": hands,
        "to_move": 0,
        "phase": "over",
        "first_player": 0,
    }


def test_the_oracle_scores_the_rulebook_examples():
    """TOPIARY.md's examples A, B and C, so the oracle itself is checked against the rules."""
    example_a = line_position(
        {"a5": "H3", "b5": "p1", "c5": "O4", "d5": "H4", "e5": "S5"}, {"a5:E": 0}, [[], []]
    )
    row = oracle.score(example_a)["scores"][0]
    assert (row["visitors"], row["bonus"]) == (12, 0)
    example_b = line_position(
        {"a5": "R2", "b5": "R3", "c5": "N4", "d5": "R5", "e5": "N5"}, {"a5:E": 0}, [[], []]
    )
    row = oracle.score(example_b)["scores"][0]
    assert (row["visitors"], row["bonus"], row["total"]) == (14, 3, 17)
    example_c = line_position(
        {"a1": "R3", "b1": "W4"}, {"a1:E": 0}, [["R1", "W2", "P5"], ["E2", "E3", "E4"]]
    )
    assert oracle.score(example_c)["scores"][0]["hand"] == 3
