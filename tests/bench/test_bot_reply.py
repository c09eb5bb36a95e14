"""bench/bot_reply.py times a bot's whole reply, from the person's step that hands it the
turn to the frame that hands it back, whatever frames the socket shows in between."""

from __future__ import annotations

import pytest

from bench.bot_reply import ReplyClock


def frame(ply: int, to_move: int | None, status: str = "active") -> dict:
    return {"ply": ply, "to_move": to_move, "you": 0, "status": status}


def test_a_reply_with_a_take_is_timed_whole_to_the_plant_that_hands_the_turn_back():
    clock = ReplyClock()
    clock.sent(10, at=100.0)
    assert clock.seen(frame(11, 1), at=100.05) is None  # the person's step
    assert clock.seen(frame(12, 1), at=100.3) is None  # the bot's take step
    # Its plant hands the turn back.
    assert clock.seen(frame(13, 0), at=100.5) == (pytest.approx(0.5), 2)


def test_a_reply_folded_into_one_snapshot_after_a_resync_counts_its_plies():
    clock = ReplyClock()
    clock.sent(4, at=10.0)
    assert clock.seen(frame(6, 0), at=10.25) == (0.25, 1)


def test_a_step_that_leaves_the_persons_own_take_pending_starts_no_reply():
    clock = ReplyClock()
    clock.sent(20, at=5.0)
    assert clock.seen(frame(21, 0), at=5.1) is None  # still the person's turn: the plant
    clock.sent(21, at=6.0)
    assert clock.seen(frame(22, 1), at=6.05) is None
    assert clock.seen(frame(23, 0), at=6.5) == (0.5, 1)  # timed from the plant


def test_the_reply_that_ends_the_game_is_timed_and_the_persons_last_step_is_not():
    clock = ReplyClock()
    clock.sent(30, at=1.0)
    assert clock.seen(frame(31, 1), at=1.01) is None
    assert clock.seen(frame(32, None, "finished"), at=1.5) == (0.5, 1)
    clock.sent(40, at=2.0)
    assert clock.seen(frame(41, None, "finished"), at=2.02) is None
    assert clock.seen(frame(41, None, "finished"), at=2.5) is None
