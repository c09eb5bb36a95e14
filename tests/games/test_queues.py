"""Bot moves have a queue and a worker of their own; scoring never waits behind bots.

Also: a bot worker killed outright (kill -9, parent and children) costs a waiting
bot turn one sweep, not the broker's visibility timeout; nothing is played twice.
"""

from __future__ import annotations

import json
import time

import pytest
import redis

from games import services
from games.models import Game
from tests.games.conftest import bot_to_move, every_player_moves, live_game
from tests.support import servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.slow,
]

#: How long to wait before calling the test failed (a deadline, not a measure).
PATIENCE = 120


def queued(redis_url: str, queue: str, task: str | None = None) -> int:
    """Messages waiting on ``queue`` (only those of ``task``, by its name, if given)."""
    messages = redis.Redis.from_url(redis_url).lrange(queue, 0, -1)
    if task is None:
        return len(messages)
    return sum(json.loads(message)["headers"]["task"] == task for message in messages)


def wait_for(game: Game, ready, what: str) -> Game:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if ready(game):
            return game
        time.sleep(0.1)
    raise AssertionError(f"game {game.pk}: {what} never happened")


def test_scoring_is_done_while_bot_moves_wait_on_their_own_queue(
    server_env, server_logs, redis_url, make_player
):
    redis.Redis.from_url(redis_url).delete("bots", "celery")
    human = make_player()
    waiting = bot_to_move(human, "greedy")
    assert queued(redis_url, "bots") == 1 and queued(redis_url, "celery") == 0

    ann, bob = make_player(), make_player()
    finished = every_player_moves(live_game([ann, bob], rated=True), [ann, bob])
    services.game_resign(game_id=finished.pk, user=ann)
    worker = servers.Process(
        "worker", {**server_env, "PORT": str(servers.free_port())}, server_logs
    )
    try:
        worker.wait_for_log("ready.")
        wait_for(finished, lambda g: g.result is not None, "scoring")
    finally:
        worker.stop()
    assert finished.result["ranks"] == [2, 1]
    waiting.refresh_from_db()
    # The finished game's mining may wait on the bots queue too: the bot's move must still.
    assert waiting.bot_to_move and queued(redis_url, "bots", "games.tasks.bot_move") == 1


def test_a_bot_worker_killed_outright_costs_a_sweep_and_nothing_is_played_twice(
    server_env, server_logs, celery_beat, make_player
):
    human = make_player()
    workers = servers.start_worker(server_env, server_logs)
    try:
        seen = len(workers.bots.log())
        game = bot_to_move(human, "master")
        ply = game.ply
        deadline = time.monotonic() + PATIENCE
        while "bot_move[" not in workers.bots.log()[seen:]:
            assert time.monotonic() < deadline, "the bot worker never received the task"
            time.sleep(0.02)
        # The master bot thinks for its whole second: kill everything while it does.
        workers.kill()
        game.refresh_from_db()
        assert game.ply == ply and game.bot_to_move
        workers = servers.start_worker(server_env, server_logs)
        game = wait_for(game, lambda g: g.ply > ply, "the bot's move after the kill")
    finally:
        workers.stop()
    assert game.ply == ply + 1 and not game.bot_to_move
