"""Bots and scoring on a real Celery worker, against real PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
import redis
from django.db import connection

from engine.games import game_module
from games import selectors, services
from games.actions import action_run
from games.models import Game
from kit.socket_db import db_urgent
from tests.games.conftest import every_player_moves, live_game
from tests.support.servers import QUEUES
from tests.support.tables import CORRESPONDENCE
from topiary_site.celery import app as celery_app

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.slow,
]

#: How long to wait for the worker before calling the test failed (a deadline, not a measure).
PATIENCE = 120


def wait_for(game: Game, ready) -> Game:
    """Poll the database until ``ready(game)`` holds; fail after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if ready(game):
            return game
        time.sleep(0.1)
    raise AssertionError(f"game {game.pk} stuck at ply {game.ply} ({game.status})")


@contextmanager
def tasks_lost(workers, kind: str) -> Iterator[list[int]]:
    """Tasks for ``kind``'s worker queued inside the block are lost, as when the broker
    restarts without saving while that worker is down. The list yielded gets how many."""
    lost: list[int] = []
    # What the test before left (a finished game's mining) must not count as lost here.
    workers.wait_idle()
    with workers.down(kind):
        yield lost
        with celery_app.connection_for_write() as broker:
            lost.append(broker.default_channel.queue_purge(QUEUES[kind]))


def play_against_bots(game: Game, human) -> Game:
    """The human plays from their own view whenever it is their turn; the worker plays the rest."""
    while True:
        game = wait_for(
            game,
            lambda g: g.status != Game.Status.ACTIVE or not g.bot_to_move,
        )
        if game.status != Game.Status.ACTIVE:
            return game
        frame = selectors.game_state_for(game.pk, human)
        services.move_play(
            game_id=game.pk, user=human, ply=frame["ply"], move=frame["legal_moves"][-1]
        )


def test_a_whole_wizards_garden_game_against_a_bot(celery_worker, make_player):
    human = make_player()
    game = services.bot_game_create(
        user=human,
        kind="wizards_garden",
        level="greedy",
        rated=True,
        clock_initial=600,
        clock_increment=5,
        correspondence_days=None,
    )
    game = play_against_bots(game, human)
    game = wait_for(game, lambda g: g.result is not None)
    assert game.termination == "normal"
    bot_seat = game.seats.get(user__is_bot=True)
    assert any(entry["seat"] == bot_seat.index for entry in game.moves)
    states = game_module("wizards_garden").replay(game.record)
    assert states[-1].is_over
    assert sorted(seat.rank for seat in game.seats.all()) in ([1, 2], [1, 1])


def test_a_four_player_topiary_table_with_three_bots_finishes(celery_worker, make_player):
    human = make_player()
    table = services.table_create(
        user=human,
        kind="topiary",
        players=4,
        rated=True,
        **CORRESPONDENCE,
    )
    services.table_fill_with_bots(game_id=table.pk, user=human, level="greedy")
    game = play_against_bots(Game.objects.get(pk=table.pk), human)
    game = wait_for(game, lambda g: g.result is not None)
    seats = list(game.seats.select_related("user"))
    assert len({seat.user_id for seat in seats}) == 4
    assert sum(seat.user.is_bot for seat in seats) == 3
    assert len(game.turns()) == 4 * 5
    assert game_module("topiary").replay(game.record)[-1].is_over
    assert sorted(seat.rank for seat in seats)[0] == 1


def test_the_sweep_requeues_a_bot_turn_whose_task_was_lost(celery_worker, make_player):
    human = make_player()
    with tasks_lost(celery_worker, "bots") as lost:
        game = services.bot_game_create(
            user=human,
            kind="topiary",
            level="random",
            rated=False,
            **CORRESPONDENCE,
        )
        if not game.bot_to_move:
            frame = selectors.game_state_for(game.pk, human)
            services.move_play(game_id=game.pk, user=human, ply=0, move=frame["legal_moves"][0])
            game.refresh_from_db()
    assert lost == [1]
    lost_at = game.ply
    game.refresh_from_db()
    assert game.bot_to_move and game.ply == lost_at
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(minutes=1)
    )
    assert services.games_sweep()["bots_requeued"] == 1
    wait_for(game, lambda g: g.ply > lost_at)


def test_a_flagged_seat_at_a_three_player_table_is_played_by_a_bot_and_ranks_last(
    celery_worker, make_player
):
    ann, bob, cat = make_player(), make_player(), make_player()
    game = every_player_moves(
        live_game([ann, bob, cat], first_player=0, rated=True), [ann, bob, cat]
    )
    # Ann's clock holds about 303 s after her move and its increment.
    Game.objects.filter(pk=game.pk).update(
        deadline=game.deadline - timedelta(seconds=310),
        turn_started_at=game.turn_started_at - timedelta(seconds=310),
    )
    services.games_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.get(index=0).forfeit == "time"
    others = {bob: 1, cat: 2}
    while True:
        game = wait_for(game, lambda g: g.status != Game.Status.ACTIVE or not g.bot_to_move)
        if game.status != Game.Status.ACTIVE:
            break
        to_move = selectors.game_state_for(game.pk, None)["to_move"]
        user = next(u for u, seat in others.items() if seat == to_move)
        frame = selectors.game_state_for(game.pk, user)
        services.move_play(
            game_id=game.pk, user=user, ply=frame["ply"], move=frame["legal_moves"][0]
        )
    game = wait_for(game, lambda g: g.result is not None)
    ranks = game.result["ranks"]
    assert ranks[0] == 3 and sorted(ranks[1:]) in ([1, 2], [1, 1])
    assert sum(turn["seat"] == 0 for turn in game.turns()) == 6


def test_a_bot_plays_a_take_in_two_steps_each_its_own_ply(celery_worker, make_player):
    human = make_player()
    game = services.bot_game_create(
        user=human,
        kind="topiary",
        level="greedy",
        players=3,
        rated=False,
        **CORRESPONDENCE,
    )
    game = play_against_bots(game, human)
    game = wait_for(game, lambda g: g.result is not None)
    bots = {seat.index for seat in game.seats.filter(user__is_bot=True)}
    plants = [ply for ply, entry in enumerate(game.moves) if entry["move"].startswith("=")]
    assert plants, "no bot took a tile"
    for ply in plants:
        take, plant = game.moves[ply - 1], game.moves[ply]
        assert take["seat"] == plant["seat"] in bots and take["took"] == plant["took"]
        assert " " in take["move"] and "=" not in take["move"]
    turns = game.turns()
    assert len(turns) == 3 * 6 and len(game.moves) == len(turns) + len(plants)
    assert game_module("topiary").replay(game.record)[-1].is_over


def test_a_take_left_pending_by_a_flagged_seat_is_planted_by_the_stand_in(
    celery_worker, make_player
):
    ann, bob, cat = make_player(), make_player(), make_player()
    game = live_game([ann, bob, cat], first_player=0)
    frame = selectors.game_state_for(game.pk, ann)
    step = next(s for s in frame["legal_steps"] if " " in s and "=" not in s)
    services.move_play(game_id=game.pk, user=ann, ply=0, move=step)
    game.refresh_from_db()
    # Ann's clock runs out between her two steps, and the stand-in's first task is lost.
    Game.objects.filter(pk=game.pk).update(
        deadline=game.deadline - timedelta(seconds=301),
        turn_started_at=game.turn_started_at - timedelta(seconds=301),
    )
    with tasks_lost(celery_worker, "bots") as lost:
        services.games_sweep()
    assert lost == [1]
    game.refresh_from_db()
    assert game.seats.get(index=0).forfeit == "time" and game.bot_to_move and game.ply == 1
    assert selectors.game_state_for(game.pk, None)["pending"]["seat"] == 0
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(minutes=1)
    )
    assert services.games_sweep()["bots_requeued"] == 1
    game = wait_for(game, lambda g: g.ply == 2)
    assert game.status == Game.Status.ACTIVE and game.moves[1]["seat"] == 0
    assert game.moves[1]["move"].startswith("=")
    assert selectors.game_state_for(game.pk, bob)["to_move"] == 1
    assert game.turns()[0]["move"].startswith(step + "=")


def test_the_sweep_requeues_a_scoring_that_was_lost(celery_worker, make_player):
    ann, bob = make_player(), make_player()
    game = every_player_moves(live_game([ann, bob], rated=True), [ann, bob])
    with tasks_lost(celery_worker, "worker") as lost:
        services.game_resign(game_id=game.pk, user=ann)
    assert lost == [1]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.record is None
    Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at - timedelta(minutes=1))
    assert services.games_sweep()["scores_requeued"] == 1
    game = wait_for(game, lambda g: g.result is not None)
    assert game.result["ranks"] == [2, 1]


def test_games_that_end_together_on_sockets_are_scored_from_one_batch(celery_worker, make_player):
    pairs = [(make_player(), make_player()) for _ in range(3)]
    games = [every_player_moves(live_game(list(pair), rated=True), pair) for pair in pairs]
    seen = len(celery_worker.worker.log())

    async def resign_on_sockets():
        # As each player's socket does: the request runs on the socket database threads.
        return await asyncio.gather(
            *(
                db_urgent(action_run)(game.pk, ann, "resign", {})
                for game, (ann, _) in zip(games, pairs, strict=True)
            )
        )

    assert asyncio.run(resign_on_sockets()) == [None, None, None]
    for game in games:
        game = wait_for(game, lambda g: g.result is not None)
        assert game.result["ranks"] == [2, 1]
    # The worker received one task for the three scorings, and no task for one game.
    received = celery_worker.worker.log()[seen:]
    assert len(re.findall(r"Task games\.tasks\.games_score\[[0-9a-f-]+\] received", received)) == 1
    assert "Task games.tasks.game_score[" not in received


def test_beat_flags_a_clock_that_ran_out_with_nobody_watching(
    celery_worker, celery_beat, make_player
):
    ann, bob = make_player(), make_player()
    game = every_player_moves(live_game([ann, bob], first_player=1, rated=True), [ann, bob])
    Game.objects.filter(pk=game.pk).update(
        deadline=game.deadline - timedelta(seconds=310),
        turn_started_at=game.turn_started_at - timedelta(seconds=310),
    )
    game = wait_for(game, lambda g: g.result is not None)
    assert game.termination == "time" and game.result["winners"] == [0]


def _pool_children(worker) -> list[int]:
    """The pids of the worker's pool processes (the ones that run tasks)."""
    found = subprocess.run(
        ["pgrep", "-P", str(worker.popen.pid)], capture_output=True, text=True, check=False
    )
    return [int(pid) for pid in found.stdout.split()]


def test_a_bot_task_whose_worker_process_dies_runs_again(celery_worker, make_player):
    human = make_player()
    bots = celery_worker.bots
    seen = len(bots.log())
    game = services.bot_game_create(
        user=human,
        kind="wizards_garden",
        level="master",
        rated=False,
        **CORRESPONDENCE,
    )
    if not game.bot_to_move:
        frame = selectors.game_state_for(game.pk, human)
        services.move_play(game_id=game.pk, user=human, ply=0, move=frame["legal_moves"][0])
    received = re.compile(r"Task games\.tasks\.bot_move\[([0-9a-f-]+)\] received")
    deadline = time.monotonic() + PATIENCE
    while not (match := received.search(bots.log()[seen:])):
        assert time.monotonic() < deadline, "the worker never received the bot's task"
        time.sleep(0.02)
    # The master bot thinks for its whole second: kill the pool while it does.
    for pid in _pool_children(bots):
        os.kill(pid, signal.SIGKILL)
    task_id = match[1]
    done = re.compile(rf"Task games\.tasks\.bot_move\[{task_id}\] succeeded")
    while not done.search(bots.log()[seen:]):
        assert time.monotonic() < deadline, "the bot's task was not run again"
        time.sleep(0.1)
    log = bots.log()[seen:]
    assert "WorkerLostError" in log
    assert len(re.findall(rf"bot_move\[{task_id}\] received", log)) == 2
    game.refresh_from_db()
    assert any(entry["seat"] == 1 for entry in game.moves)


def _bots_play_each_other(games: int) -> list[Game]:
    """``games`` Topiary games between two random bots, played to the end by the worker."""
    first = services.bot_pick("random")
    second = services.bot_pick("random", besides=[first])
    return [
        services.game_create(
            kind="topiary",
            players=[first, second],
            options={},
            rated=False,
            **CORRESPONDENCE,
        )
        for _ in range(games)
    ]


def _sessions_opened() -> int:
    """Connections PostgreSQL has accepted to the test database so far."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_the_workers_keep_their_database_and_redis_connections_from_task_to_task(
    celery_worker, redis_url
):
    # Every bot move and every scoring is a task. Celery's Django fixup used to close the
    # connection pool around each one, and each push opened a Redis connection of its own.
    broker = redis.Redis.from_url(redis_url)
    warm = _bots_play_each_other(1)  # the pool processes connect once, for good
    for game in warm:
        wait_for(game, lambda g: g.result is not None)
    time.sleep(1.5)  # PostgreSQL counts a session once its backend reports
    sessions, connections = _sessions_opened(), broker.info("stats")["total_connections_received"]
    games = _bots_play_each_other(2)
    tasks = 0
    for game in games:
        game = wait_for(game, lambda g: g.result is not None)
        tasks += game.ply + 1  # a task per bot move, and the scoring
    time.sleep(1.5)
    new_sessions = _sessions_opened() - sessions
    new_connections = broker.info("stats")["total_connections_received"] - connections
    assert tasks > 40
    assert new_sessions < tasks / 4, f"{new_sessions} database connections for {tasks} tasks"
    assert new_connections < tasks / 4, f"{new_connections} Redis connections for {tasks} tasks"


def test_the_master_bot_plays_a_rated_game_to_its_end_from_its_measured_rating(
    celery_worker, make_player
):
    """The fourth house level is seated, moved by the bots queue and rated like the others,
    its rating starting from its measured strength instead of 1500."""
    from engine.bots import measured_ratings
    from ratings.models import RatingChange

    human = make_player()
    game = services.bot_game_create(
        user=human, kind="topiary", level="master", rated=True, **CORRESPONDENCE
    )
    game = play_against_bots(game, human)
    game = wait_for(game, lambda g: g.result is not None)
    assert game.termination == "normal"
    bot = game.seats.get(user__is_bot=True).user
    assert (bot.username, bot.bot_level) == ("MasterBot", "master")
    # Both steps of the bot's takes and its placements were its own decisions, all legal.
    assert sum(entry["seat"] != game.seats.get(user=human).index for entry in game.moves) >= 8
    assert game_module("topiary").replay(game.record)[-1].is_over
    wait_for(game, lambda g: RatingChange.objects.filter(user=bot).exists())
    change = RatingChange.objects.get(user=bot, kind="topiary")
    assert change.before == measured_ratings("master")["topiary"] != 1500
    assert RatingChange.objects.get(user=human, kind="topiary").before == 1500
