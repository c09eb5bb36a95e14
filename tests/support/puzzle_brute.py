"""Brute force over every line, independent of the solvers: the proof checks for mined
puzzles (tests of issue 44). Slow by design; only for K <= 2."""

from __future__ import annotations

from engine import topiary
from engine import wizards_garden as wg


def topiary_brute(position: dict) -> tuple[int, set[str]]:
    """(optimum, optimal first moves) of a Topiary puzzle by trying every line of K moves."""
    state = topiary.state_from_json(position)
    seat = state.to_move

    def best(state: topiary.State) -> int:
        if state.to_move != seat or state.is_over or not state.unplaced[seat]:
            return state.totals()[seat]
        return max(best(state.apply_code(code)) for code in state.move_codes())

    values = {topiary.move_name(code): best(state.apply_code(code)) for code in state.move_codes()}
    optimum = max(values.values())
    return optimum, {move for move, value in values.items() if value == optimum}


def garden_value(state: wg.State, seat: int) -> int:
    """2 x flower lead + staff (+1 held, -1 held by the opponent), as the puzzles score."""
    flowers = [w + b for w, b in state.harvested]
    staff = 0 if state.staff is None else (1 if state.staff == seat else -1)
    return 2 * (flowers[seat] - flowers[1 - seat]) + staff


def garden_brute(position: dict, k: int) -> tuple[int, set[str]]:
    """(optimum, optimal first moves) of a Wizards' Garden puzzle by plain minimax over
    every line of K plantings and K - 1 replies."""
    state = wg.state_from_json(position)
    seat = state.to_move

    def minimax(state: wg.State, plies: int) -> int:
        if plies == 0 or state.is_over:
            return garden_value(state, seat)
        values = [minimax(state.apply_code(code), plies - 1) for code in state.move_codes()]
        return max(values) if state.to_move == seat else min(values)

    values = {
        wg.move_name(code): minimax(state.apply_code(code), 2 * k - 2)
        for code in state.move_codes()
    }
    optimum = max(values.values())
    return optimum, {move for move, value in values.items() if value == optimum}
