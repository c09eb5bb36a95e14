"""The socket database threads take players' actions ahead of a page's other calls, but
never leave those waiting longer than their slack."""

import threading

import pytest

from kit.socket_db import RankedThreads, pages_at_once


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def one_thread():
    """A pool of one thread held busy until ``release`` is set, and what it ran in order."""
    clock = Clock()
    threads = RankedThreads(1, "test-ranked", clock=clock)
    release, ran = threading.Event(), []
    held = threads.submit(0.0, release.wait)
    yield threads, clock, release, ran
    release.set()
    held.result(timeout=10)


def test_an_action_runs_ahead_of_calls_submitted_within_their_slack(one_thread):
    threads, clock, release, ran = one_thread
    page = threads.lane(0.25)
    action = threads.lane(0.0)
    futures = [page.submit(ran.append, "snapshot"), page.submit(ran.append, "presence")]
    clock.now += 0.2
    futures.append(action.submit(ran.append, "move"))
    release.set()
    for future in futures:
        future.result(timeout=10)
    assert ran == ["move", "snapshot", "presence"]


def test_a_call_waits_behind_actions_no_longer_than_its_slack(one_thread):
    threads, clock, release, ran = one_thread
    page = threads.lane(0.25)
    action = threads.lane(0.0)
    futures = [page.submit(ran.append, "snapshot")]
    clock.now += 0.3
    futures.append(action.submit(ran.append, "late move"))
    release.set()
    for future in futures:
        future.result(timeout=10)
    assert ran == ["snapshot", "late move"]


def test_errors_reach_the_caller_and_the_thread_goes_on(one_thread):
    threads, _, release, ran = one_thread
    failing = threads.submit(0.0, lambda: 1 / 0)
    after = threads.submit(0.0, ran.append, "next")
    release.set()
    with pytest.raises(ZeroDivisionError):
        failing.result(timeout=10)
    after.result(timeout=10)
    assert ran == ["next"]


def test_a_cancelled_call_never_runs(one_thread):
    threads, _, release, ran = one_thread
    cancelled = threads.submit(0.0, ran.append, "cancelled")
    kept = threads.submit(0.0, ran.append, "kept")
    assert cancelled.cancel()
    release.set()
    kept.result(timeout=10)
    assert ran == ["kept"]


def test_a_storm_of_page_calls_leaves_threads_free_for_actions():
    """Pages' calls run on at most ``at_once`` threads: with the others free, a move does
    not share the interpreter with a whole pool of page calls, nor wait for one to end."""
    clock = Clock()
    threads = RankedThreads(2, "test-capped", clock=clock)
    page = threads.lane(0.25, at_once=1)
    action = threads.lane(0.0)
    release, ran = threading.Event(), []
    busy = page.submit(release.wait)
    waiting = page.submit(ran.append, "snapshot")
    clock.now += 1.0  # the snapshot is long due: uncapped, it would take the free thread
    move = action.submit(ran.append, "move")
    move.result(timeout=10)
    assert ran == ["move"]
    assert not waiting.done()
    release.set()
    waiting.result(timeout=10)
    busy.result(timeout=10)
    assert ran == ["move", "snapshot"]


def test_a_capped_lane_still_uses_every_thread_it_is_allowed():
    threads = RankedThreads(3, "test-capped-wide")
    page = threads.lane(0.0, at_once=2)
    both_running, release = threading.Barrier(3), threading.Event()

    def hold():
        both_running.wait(timeout=10)
        release.wait(timeout=10)

    held = [page.submit(hold), page.submit(hold)]
    both_running.wait(timeout=10)  # would time out if the lane ran one call at a time
    release.set()
    for future in held:
        future.result(timeout=10)


@pytest.mark.parametrize(
    ("threads", "pages", "at_once"),
    [(8, 2, 2), (8, 0, 7), (2, 2, 1), (3, 4, 2), (1, 2, None)],
)
def test_pages_always_leave_a_thread_for_moves(threads, pages, at_once):
    assert pages_at_once(threads, pages) == at_once
