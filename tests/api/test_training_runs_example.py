"""The run example of docs/API.md ("Puzzle Streak and Puzzle Storm") is the file in
examples/, and it plays a whole streak against the real web process on its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from puzzles.models import TrainingAttempt, TrainingRun
from tests.support.training import training_pool

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "puzzle_run.py"


def test_the_guide_shows_the_run_example_as_it_is():
    guide = (ROOT / "docs" / "API.md").read_text()
    assert EXAMPLE.read_text() in re.findall(r"```python\n(.*?)```", guide, re.DOTALL)


def test_the_run_example_plays_a_streak_to_its_end(asgi_server, make_player, make_token):
    training_pool(range(900, 1900, 20))
    runner = make_player()
    _, secret = make_token(runner, "puzzle:write")
    env = {**os.environ, "TOPIARY_URL": asgi_server, "TOPIARY_TOKEN": secret}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "streak"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    run = TrainingRun.objects.get(user=runner)
    assert run.ended_at is not None
    # Every answer it sent was judged once, and it reports the run the server kept.
    answered = TrainingAttempt.objects.filter(user=runner, run=run).count()
    assert answered == run.score + run.mistakes
    last = done.stdout.strip().splitlines()[-1]
    assert last == f"streak over: {run.score} solved, {run.mistakes} mistakes"
    assert "refused" not in done.stderr
