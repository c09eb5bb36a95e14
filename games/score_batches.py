"""Scorings of games that end on a socket, queued to the broker in batches.

A game-ending move queued its game's scoring task from the socket thread that played it,
right after the commit. That publish (Celery's message, kombu's producer, the broker's
round trip) cost about as much CPU as the rest of the move: 2.3-2.7 of 5.2-5.3 ms
(docs/decisions/0013-scorings-in-batches.md). Games end in waves (a tournament
round, games started together), and fifty such publishes held the interpreter lock while
the other games' moves waited for it.

A game that ends on a socket thread now hands its id to this process's batcher. One
thread takes the first id, waits ``BATCH_WAIT`` for the rest of a wave to join it, and
queues one ``games_score`` task per ``BATCH_MOST`` games, so the worker processes share a
big wave. A batch that is never queued (the process died first, or the broker was down)
loses nothing: the sweep queues every game still unscored after ``SCORE_OVERDUE``, as it
always did for a lost task.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

#: Seconds the batcher waits after a game's end for others to join its batch.
BATCH_WAIT = 0.1
#: Games per task at most: a wave of game ends is shared by the worker processes.
BATCH_MOST = 20


class ScoreBatches:
    """Game ids handed over by any thread, queued by one thread of its own: every
    ``wait`` seconds at most, one ``publish(ids)`` per ``most`` ids."""

    def __init__(
        self,
        publish: Callable[[list[int]], object],
        *,
        wait: float = BATCH_WAIT,
        most: int = BATCH_MOST,
    ):
        self.publish, self.wait, self.most = publish, wait, most
        self._waiting: list[int] = []
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, game_id: int) -> None:
        """Queue ``game_id``'s scoring with the next batch."""
        with self._ready:
            self._waiting.append(game_id)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="score-batches", daemon=True)
                self._thread.start()
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._waiting:
                    self._ready.wait()
            time.sleep(self.wait)
            with self._ready:
                batch, self._waiting = self._waiting, []
            for start in range(0, len(batch), self.most):
                ids = batch[start : start + self.most]
                try:
                    self.publish(ids)
                except Exception as error:
                    # The sweep queues them again once they are overdue.
                    log.warning("could not queue the scoring of games %s: %r", ids, error)
