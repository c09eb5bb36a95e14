"""Many ask at once, on PostgreSQL with the real Celery workers: one analysis, one task."""

from __future__ import annotations

import re
import time

import pytest

from analysis import services
from analysis.models import Analysis
from engine import analysis as engine_analysis
from games.history_selectors import game_record
from tests.ratings.played import make_user, play_game
from tests.support.threads import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.celery,
    pytest.mark.redis,
    pytest.mark.slow,
]

#: How long to wait for the worker before calling the test failed (a deadline, not a measure).
PATIENCE = 300
ASKERS = 8


def test_many_concurrent_requests_analyse_the_game_once(celery_worker):
    players = [make_user(f"asker{i}") for i in range(ASKERS)]
    game = play_game(players[:2], kind="topiary")
    # The bots worker's own log: the workers' logs joined would shift as another grows.
    seen = len(celery_worker.bots.log())
    asked = at_once(lambda user: services.analysis_request(game_id=game.pk, user=user).pk, players)
    assert [error for _, error in asked if error] == []
    answers = [answer for answer, _ in asked]
    assert Analysis.objects.count() == 1
    assert set(answers) == {Analysis.objects.get().pk}
    # The engine's own analysis, worked out here while the worker works out its own.
    record = game_record(game)
    expected = engine_analysis.analyse_record(record, seed=f"game/{game.pk}")

    deadline = time.monotonic() + PATIENCE
    analysis = Analysis.objects.get()
    while analysis.status != Analysis.Status.DONE:
        assert analysis.status != Analysis.Status.FAILED, analysis.error
        assert time.monotonic() < deadline, f"analysis stuck at {analysis.done}/{analysis.total}"
        time.sleep(0.2)
        analysis.refresh_from_db()
    assert analysis.runs == 1
    log = celery_worker.bots.log()[seen:]
    assert len(re.findall(r"analysis\.tasks\.analysis_run\[[0-9a-f-]+\] received", log)) == 1
    assert len(re.findall(r"analysis\.tasks\.analysis_run\[[0-9a-f-]+\] succeeded", log)) == 1
    # The worker's analysis is the engine's, turn by turn, from each mover's view.
    assert analysis.result == expected
    assert analysis.done == analysis.total == len(record["moves"])
