"""The batcher that queues the scorings of games ended on sockets (games.score_batches)."""

from __future__ import annotations

import logging
import threading
import time

from games.score_batches import ScoreBatches

#: How long to wait for a batch before calling the test failed (a deadline, not a measure).
PATIENCE = 10


class Published:
    """What the batcher published, batch by batch; fails the first ``failures`` calls."""

    def __init__(self, failures: int = 0):
        self.batches: list[list[int]] = []
        self.failures = failures
        self.changed = threading.Condition()

    def __call__(self, ids: list[int]) -> None:
        with self.changed:
            if self.failures:
                self.failures -= 1
                self.changed.notify_all()
                raise ConnectionError("the broker is down")
            self.batches.append(list(ids))
            self.changed.notify_all()

    def wait_for(self, count: int) -> list[list[int]]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.batches) >= count, PATIENCE)
            return list(self.batches)


def test_games_ending_together_from_many_threads_go_out_in_one_batch():
    published = Published()
    batches = ScoreBatches(published, wait=0.3)
    threads = [threading.Thread(target=batches.add, args=(game_id,)) for game_id in range(1, 6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(published.wait_for(1)[0]) == [1, 2, 3, 4, 5]
    time.sleep(0.5)
    assert len(published.batches) == 1


def test_a_big_wave_is_shared_out_in_tasks_of_at_most_most_games():
    published = Published()
    batches = ScoreBatches(published, wait=0.3, most=2)
    for game_id in (7, 8, 9, 10, 11):
        batches.add(game_id)
    assert published.wait_for(3) == [[7, 8], [9, 10], [11]]


def test_a_game_ending_after_a_batch_went_out_goes_in_the_next():
    published = Published()
    batches = ScoreBatches(published, wait=0.05)
    batches.add(1)
    published.wait_for(1)
    batches.add(2)
    assert published.wait_for(2) == [[1], [2]]


def test_a_batch_the_broker_refuses_is_logged_and_the_next_goes_out(caplog):
    published = Published(failures=1)
    batches = ScoreBatches(published, wait=0.05)
    with caplog.at_level(logging.WARNING, logger="games.score_batches"):
        batches.add(1)
        with published.changed:
            assert published.changed.wait_for(lambda: published.failures == 0, PATIENCE)
        batches.add(2)
        assert published.wait_for(1) == [[2]]
    assert "could not queue the scoring of games [1]" in caplog.text
