"""Training puzzles mined from the site's games and from self-play (issue 44), on the real
stack: PostgreSQL, Redis and a real Celery worker."""

from __future__ import annotations

import gzip
import json
import os
import re
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

from engine import topiary
from engine.mining import MinedPuzzle
from games.models import Game
from puzzles import selectors, services
from puzzles.models import TrainingPuzzle
from tests.ratings.played import play_game
from tests.support.players import create_player
from tests.support.puzzle_brute import topiary_brute
from topiary_site.celery import app

pytestmark = [
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

POOL = Path(__file__).resolve().parents[2] / "puzzles" / "data"


def successes(worker, task: str) -> list[str]:
    """What each successful run of ``task`` returned, from the worker's log."""
    return re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded in [^:]+: (.*)", worker.log())


def wait_for(worker, task: str, count: int, timeout: float = 300) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = successes(worker, task)
        if len(done) >= count:
            return done
        time.sleep(0.3)
    raise AssertionError(f"{task} not done {count} times:\n{worker.log()[-3000:]}")


def test_a_scored_game_yields_proven_puzzles_through_the_worker(celery_worker):
    alice, bob = create_player("alice"), create_player("bob")
    game = play_game([alice, bob], move_seed=44)
    assert game.status == Game.Status.FINISHED and game.record

    # Scoring sent game_finished; its receiver queued the mining task for the worker.
    first = wait_for(celery_worker, "puzzles.mine_game", 1)[0]
    # Mining ran in the mining worker, at the lowest CPU priority, never beside bot moves.
    assert "puzzles.mine_game[" in celery_worker.mining.log()
    assert "puzzles.mine_game[" not in celery_worker.bots.log()
    niced = int(celery_worker.env["MINING_NICE"])
    assert niced > 0 and os.getpriority(os.PRIO_PROCESS, celery_worker.mining.popen.pid) == niced
    # Where the kernel groups processes by session, the worker's group is niced as well.
    autogroup = Path(f"/proc/{celery_worker.mining.popen.pid}/autogroup")
    if autogroup.exists():
        assert autogroup.read_text().split()[-2:] == ["nice", str(niced)]
        bots = Path(f"/proc/{celery_worker.bots.popen.pid}/autogroup").read_text()
        assert bots.split()[-2:] == ["nice", "0"]
    stored = list(TrainingPuzzle.objects.filter(source_game=game).order_by("pk"))
    assert int(first) == len(stored) > 0
    users = {seat.index: seat.user_id for seat in game.seats.all()}
    source = selectors.training_puzzle_source(stored[0])
    assert source["game_id"] == game.pk and source["players"] == ["alice", "bob"]
    assert source["text"] == f"from alice v bob, {game.finished_at.date().isoformat()}"
    for puzzle in stored:
        assert puzzle.origin == TrainingPuzzle.Origin.GAME
        assert puzzle.source_user_id == users[puzzle.seat]
        assert puzzle.played is not None and puzzle.optimum > puzzle.played
        state = topiary.state_from_json(puzzle.position)
        final = state
        for move in puzzle.line:
            final = final.apply(move, puzzle.seat)
        assert final.totals()[puzzle.seat] == puzzle.optimum
        if puzzle.k <= 2:
            # An independent search over every line proves the stored optimum and first moves.
            assert topiary_brute(puzzle.position) == (
                puzzle.optimum,
                set(puzzle.optimal_first_moves),
            )

    # Mining the game again stores nothing new: the fingerprint is unique.
    app.send_task("puzzles.mine_game", args=[game.pk])
    assert wait_for(celery_worker, "puzzles.mine_game", 2)[1] == "0"
    assert TrainingPuzzle.objects.filter(source_game=game).count() == len(stored)


def test_self_play_command_writes_and_stores_the_same_puzzles_once(tmp_path):
    path = tmp_path / "one.jsonl.gz"
    call_command("mine_puzzles", seed="test-seed", games=1, start=1, output=str(path))
    with gzip.open(path, "rt") as written:
        lines = written.read().splitlines()
    assert lines and all(json.loads(line)["seed"] == "test-seed/1" for line in lines)

    call_command("mine_puzzles", seed="test-seed", games=1, start=1)
    rows = TrainingPuzzle.objects.filter(seed="test-seed/1", origin="selfplay")
    assert sorted(rows.values_list("fingerprint", flat=True)) == sorted(
        json.loads(line)["fingerprint"] for line in lines
    )
    # The pool file's lines load as the same puzzles: nothing new.
    assert services.training_puzzles_load(json.loads(line) for line in lines) == 0


def test_the_committed_pool_loads_once():
    call_command("load_puzzle_pool")
    counts = {
        kind: TrainingPuzzle.objects.filter(kind=kind).count()
        for kind in ("topiary", "wizards_garden")
    }
    with gzip.open(POOL / "topiary-selfplay.jsonl.gz", "rt") as lines:
        assert counts["topiary"] == sum(1 for _ in lines)
    assert counts["wizards_garden"] > 0
    call_command("load_puzzle_pool")
    assert TrainingPuzzle.objects.count() == sum(counts.values())
    some = TrainingPuzzle.objects.filter(kind="topiary").order_by("pk").first()
    assert some.themes and some.optimal_first_moves and some.rating >= 600


def test_training_puzzle_add_refuses_a_duplicate():
    with gzip.open(POOL / "wizards-garden-selfplay.jsonl.gz", "rt") as lines:
        data = json.loads(next(lines))
    mined = MinedPuzzle.from_json(data)
    row = services.training_puzzle_add(mined, origin="selfplay", seed="x/0")
    assert row is not None and row.fingerprint == data["fingerprint"]
    assert selectors.training_puzzle_source(row) is None
    assert services.training_puzzle_add(mined, origin="selfplay", seed="x/0") is None
    assert TrainingPuzzle.objects.filter(fingerprint=data["fingerprint"]).count() == 1


def test_the_top_up_mines_the_next_self_play_game():
    key = "puzzles:top-up-next:topiary-topup-1"
    # Game 0 of the top-up seed is a 4-player game (slow to mine): start at game 1.
    cache.set(key, 1, timeout=None)
    try:
        added = services.training_pool_top_up(kind="topiary")
        assert cache.get(key) == 2
        seeds = set(TrainingPuzzle.objects.values_list("seed", flat=True))
        assert added == len(TrainingPuzzle.objects.all()) and seeds <= {"topiary-topup-1/1"}
    finally:
        cache.delete(key)
