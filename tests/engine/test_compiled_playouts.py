"""Compiled playouts against the reference (``fastplay``): same seeded stream, same games.

Thousands of seeded deals, playouts (random and master's guided ones) and scorings go
through both and must come out identical, the compiled bandits pull the reference's arms for
the same rewards, and the strong and master bots must choose the same steps either way.
"""

from __future__ import annotations

import random

import pytest

from engine import bots, search, topiary
from engine.rng import Rng
from engine.topiary import bots as topiary_bots
from engine.topiary import fastplay
from engine.topiary.board import LINES

compiled = fastplay.compiled

TABLES = [
    {"players": 2},
    {"players": 3, "must_pick": True},
    {"players": 4, "corner_diagonals": False},
    {"players": 3, "draft": True},
]


def positions_along_random_games(options: dict, games: int, seed: int):
    """Every position of ``games`` random games (draft positions included)."""
    rng = Rng(seed)
    out = []
    for game in range(games):
        state = topiary.new_game(topiary.Options(**options), seed * 1000 + game)
        while not state.is_over:
            out.append(state)
            state = state.apply_code(rng.choice(state.move_codes()))
    return out


def play_phase_positions(options: dict, games: int, seed: int):
    return [s for s in positions_along_random_games(options, games, seed) if s.phase == "play"]


def same_table(reference, fast) -> None:
    assert fast.garden == reference.garden
    assert fast.visitors == reference.visitors
    assert fast.unplaced == reference.unplaced
    assert fast.hands == reference.hands
    assert fast.to_move == reference.to_move
    assert fast.totals() == reference.totals()


def test_the_compiled_playouts_are_built_by_the_projects_set_up():
    assert compiled is not None, "engine/topiary/_compiled.pyx is not built: run `make venv`"


@pytest.mark.parametrize(
    "options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_seeded_playouts_end_in_the_same_garden_hands_and_scores(options):
    positions = play_phase_positions(options, 30, seed=len(options))
    assert len(positions) > 400
    for i, state in enumerate(positions):
        reference = fastplay.Table(state)
        fast = compiled.Table.of(reference)
        rand = random.Random(i)
        stream = compiled.Stream(random.Random(i))
        fastplay.playout(reference, rand.random)
        compiled.playout(fast, stream)
        same_table(reference, fast)
        # Both drew the same count of numbers: the streams go on together.
        assert stream.random() == rand.random()


@pytest.mark.parametrize(
    "options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_seeded_guided_playouts_end_in_the_same_garden_hands_and_scores(options):
    """Master's playouts (greedy over each move's line gain, a share of random moves)."""
    positions = play_phase_positions(options, 20, seed=46 + len(options))
    assert len(positions) > 250
    for i, state in enumerate(positions):
        for explore, candidates in ((0.25, 3), (0.1, 1), (0.5, 8), (1.0, 3)):
            reference = fastplay.Table(state)
            fast = compiled.Table.of(reference)
            rand = random.Random(i)
            stream = compiled.Stream(random.Random(i))
            fastplay.guided_playout(reference, rand.random, explore, candidates)
            compiled.guided_playout(fast, stream, explore, candidates)
            same_table(reference, fast)
            assert stream.random() == rand.random()


def test_a_guided_playout_with_every_move_random_is_the_random_playout():
    for i, state in enumerate(play_phase_positions({"players": 3}, 5, seed=8)):
        random_game, guided_game = fastplay.Table(state), fastplay.Table(state)
        fastplay.playout(random_game, random.Random(i).random)
        fastplay.guided_playout(guided_game, random.Random(i).random, 1.0, 3)
        same_table(random_game, guided_game)


def test_guided_players_build_richer_gardens_than_random_ones():
    """The policy does what it says: mostly greedy players see more points than random
    ones from the same positions (every seat, summed over many playouts)."""
    positions = play_phase_positions({"players": 2}, 10, seed=12)[::4]
    random_points = guided_points = 0
    for i, state in enumerate(positions):
        random_game, guided_game = fastplay.Table(state), fastplay.Table(state)
        fastplay.playout(random_game, random.Random(i).random)
        fastplay.guided_playout(guided_game, random.Random(i).random, 0.25, 3)
        random_points += sum(random_game.totals()[0])
        guided_points += sum(guided_game.totals()[0])
    assert guided_points > 1.2 * random_points


@pytest.mark.parametrize(
    "options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_seeded_determinizations_of_a_view_deal_the_same_tiles(options):
    passed = 0
    for i, state in enumerate(play_phase_positions(options, 10, seed=7)):
        reference = fastplay.Dealer(state.view(state.to_move))
        passed += bool(reference.passed)
        fast = compiled.Dealer(reference)
        rand = random.Random(i)
        stream = compiled.Stream(random.Random(i))
        for _ in range(3):
            dealt, fast_dealt = reference.deal(rand), fast.deal(stream)
            same_table(dealt, fast_dealt)
            fastplay.playout(dealt, rand.random)
            compiled.playout(fast_dealt, stream)
            same_table(dealt, fast_dealt)
    # A draft's tiles passed on are dealt only where they can be, by two shuffles.
    assert passed > 50 if options.get("draft") else passed == 0


def test_move_codes_and_plants_of_a_pending_take_play_the_same():
    rng = Rng(21)
    for options in TABLES[:3]:
        for state in play_phase_positions(options, 3, seed=21)[::3]:
            reference = fastplay.Table(state)
            fast = compiled.Table.of(reference)
            code = rng.choice(state.move_codes())
            reference.play(code)
            fast.play(code)
            same_table(reference, fast)
            take = next((s for s in state.legal_steps() if " " in s), None)
            if take is None:
                continue
            pending = state.apply(take)
            reference = fastplay.Table(pending)
            fast = compiled.Table.of(reference)
            _, cell, took = pending.pending
            plant = rng.choice([took, *pending.hands[state.to_move]])
            reference.plant(cell, plant)
            fast.plant(cell, plant)
            same_table(reference, fast)


def test_a_stream_draws_and_shuffles_as_the_random_generator_and_can_hand_it_back():
    rand = random.Random(2026)
    stream = compiled.Stream(rand)
    # 2,000 draws cross the Mersenne Twister's refill (every 312 doubles) several times.
    drawn = [stream.random() for _ in range(2000)]
    expected = random.Random(2026)
    assert drawn == [expected.random() for _ in range(2000)]
    stream.store(rand)
    assert rand.random() == expected.random()
    for n in (1, 2, 3, 7, 8, 31, 33):
        for seed in range(50):
            items = list(range(n))
            random.Random(seed).shuffle(items)
            assert compiled.Stream(random.Random(seed)).shuffled(list(range(n))) == items


def search_choices(positions, level: str) -> list[str]:
    choices = []
    for i, state in enumerate(positions):
        view = state.view(state.to_move)
        choices.append(bots.choose_move(view, level, rng=Rng(i), iterations=60))
        take = next((s for s in state.legal_steps() if " " in s), None)
        if take is not None:
            pending = state.apply(take).view(state.to_move)
            choices.append(bots.choose_move(pending, level, rng=Rng(i), iterations=30))
    return choices


@pytest.mark.parametrize("level", ["strong", "master"])
@pytest.mark.parametrize(
    "options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_the_searching_bots_choose_the_same_steps_with_and_without_the_compiled_playouts(
    options, level, monkeypatch
):
    positions = play_phase_positions(options, 1, seed=3)[::2]
    fast = search_choices(positions, level)
    # As on a machine where the compiled module is not built.
    monkeypatch.setattr(fastplay, "compiled", None)
    assert search_choices(positions, level) == fast


@pytest.mark.parametrize(
    "options", TABLES[:3], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_the_search_rewards_and_plant_orders_are_the_references(options):
    """What the strong search moved into the compiled table (its reward at the end of a
    playout, the order it tries a take's plants in) gives the reference's numbers."""
    rng = Rng(46)
    positions = play_phase_positions(options, 20, seed=46)
    for i, state in enumerate(positions):
        reference = fastplay.Table(state)
        fast = compiled.Table.of(reference)
        mover = state.to_move
        # The plants of a take at a face-down cell, from the mover's lines and one more.
        downs = [c for c in range(25) if reference.garden[c] >= topiary.FACE_DOWN]
        if downs and reference.hands[mover]:
            cell = rng.choice(downs)
            took = reference.garden[cell] - topiary.FACE_DOWN
            mine = [p for p, s in enumerate(reference.visitors) if s == mover]
            lines = [*mine, rng.choice(range(len(reference.visitors)))]
            hand = reference.hands[mover]
            order = reference.plant_order(lines, cell, took, hand)
            assert fast.plant_order(lines, cell, took, hand) == order
            assert sorted(order) == list(range(1 + len(hand)))
            assert fast.garden == reference.garden  # the cell is put back
        fastplay.playout(reference, random.Random(i).random)
        compiled.playout(fast, compiled.Stream(random.Random(i)))
        for seat in range(reference.players):
            for scale in (6.0, 2.5):
                assert fast.reward(seat, scale) == reference.reward(seat, scale)


def pulls(bandit_choice, arms: int, iterations: int, seed: int) -> tuple[int, list[int]]:
    """The arms a root bandit pulls, and the one it chooses, for seeded noisy rewards whose
    means differ by arm (so a few arms are close and the exploration term decides)."""
    rand = random.Random(seed)
    means = [rand.random() for _ in range(arms)]
    pulled = []

    def pull(arm: int) -> float:
        pulled.append(arm)
        return min(1.0, max(0.0, rand.gauss(means[arm], 0.3)))

    chosen = bandit_choice(arms, pull, 0.0, 0.0, iterations)
    return chosen, pulled


@pytest.mark.parametrize("arms", [1, 2, 7, 60, 400])
def test_the_compiled_root_bandit_pulls_the_references_arms(arms):
    for seed in range(3):
        reference = pulls(search.bandit, arms, 3000, seed)

        def fast(arms, pull, start, budget, iterations):
            constants = (search.EXPLORATION, search.WIDEN_BASE, search.WIDEN_PER_SQRT)
            return compiled.bandit(
                arms, pull, start, budget, iterations, *constants, search.BUDGET_SHARE
            )

        assert pulls(fast, arms, 3000, seed) == reference
        assert len(reference[1]) == 3000


def test_the_compiled_root_bandit_stops_at_its_deadline_and_passes_on_a_pulls_error():
    # No iteration cap and a budget already spent: one look at the clock, no pull.
    assert compiled.bandit(5, lambda arm: 1 / 0, 0.0, 0.0, None, 0.5, 6, 1.0, 0.97) == 0

    def failing(arm: int) -> float:
        raise RuntimeError("a playout failed")

    with pytest.raises(RuntimeError, match="a playout failed"):
        compiled.bandit(5, failing, 0.0, 0.0, 10, 0.5, 6, 1.0, 0.97)


@pytest.mark.parametrize(("arms", "widen_every"), [(4, topiary_bots.PLANT_WIDEN_EVERY), (41, 1)])
def test_the_compiled_prior_bandit_chooses_the_references_arms(arms, widen_every):
    """A take's plants (4 arms) and master's replies (a position each) alike."""
    for seed in range(40):
        rand = random.Random(seed)
        order = rand.sample(range(arms), arms)
        means = [rand.random() for _ in order]
        reference = topiary_bots._PriorBandit(order, widen_every)
        fast = compiled.PriorBandit(order, widen_every, search.EXPLORATION)
        for _ in range(600):
            arm = reference.select()
            assert fast.select() == arm
            reward = min(1.0, max(0.0, rand.gauss(means[arm], 0.3)))
            reference.update(arm, reward)
            fast.update(arm, reward)


@pytest.mark.parametrize(
    "options", TABLES[:3], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_a_searched_replys_worth_and_move_at_each_position_are_the_references(options):
    """Master's replies (``Table.worth_at``, ``Table.play_best_at``) on dealt tables: the
    same worth at every free position, the same table after the move, in C and in Python."""
    moved = 0
    for state in play_phase_positions(options, 6, seed=47)[::3]:
        for p in fastplay.Table(state).free_positions():
            reference = fastplay.Table(state)
            fast = compiled.Table.of(reference)
            assert fast.worth_at(p) == reference.worth_at(p)
            reference.play_best_at(p)
            fast.play_best_at(p)
            same_table(reference, fast)
            assert reference.visitors[p] == state.to_move
            moved += 1
    assert moved > 300


def test_a_searched_reply_makes_the_take_its_worth_counts():
    """``play_best_at`` leaves the mover with what ``worth_at`` promised: its line's points
    and hand points after the move match the worth whenever no other occupied line runs
    through the taken cell (the worth then counts nothing else)."""
    checked = 0
    for state in play_phase_positions({"players": 2}, 8, seed=48):
        table = fastplay.Table(state)
        mover = table.to_move
        for p in table.free_positions():
            downs = [c for c in LINES[p] if table.garden[c] >= topiary.FACE_DOWN]
            crossed = any(
                table.visitors[q] >= 0 and q != p
                for c in downs
                for q in fastplay.POSITIONS_THROUGH[c]
            )
            if crossed:
                continue
            after = table.copy()
            worth = after.worth_at(p)
            after.play_best_at(p)
            seen = 0
            for q, owner in enumerate(after.visitors):
                if owner == mover:
                    seen |= fastplay.line_points(after.garden, LINES[q])[1]
            points, _ = fastplay.line_points(after.garden, LINES[p])
            assert points + fastplay.hand_points(after.hands[mover], seen) == worth
            checked += 1
    assert checked > 100
