"""Writes of the analysis app: asking for a game's analysis, and the task's work on it.

A game is analysed at most once: the request locks the game's row, so concurrent
requests queue one task between them (and ``Analysis.game`` is unique besides). The task
claims the analysis before working and saves every turn as it goes, so a task run twice
does nothing the second time, and one run again after its worker died resumes.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app as current_celery_app
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.models import Analysis
from engine import analysis as engine_analysis
from games import thinking
from games.history_selectors import game_record
from games.models import Game
from games.services import Refused

log = logging.getLogger(__name__)

#: A running analysis with no progress saved for this long is taken over by a new run
#: (its worker died); a turn takes about a second.
STALE = timedelta(minutes=2)


def analysis_request(*, game_id: int, user) -> Analysis:
    """Ask for a finished game's analysis: the one already asked for, or a new one queued.

    Anyone signed in may ask (a finished game's replay is public); a failed analysis is
    queued again. Refused: ``sign_in`` for an anonymous visitor, ``not_found`` for a game
    that is not finished (the same answer as for no game at all).
    """
    if user is None or not user.is_authenticated:
        raise Refused("sign_in", _("Sign in to request an analysis."))
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.FINISHED:
            raise Refused("not_found", _("No finished game with this number."))
        analysis, created = Analysis.objects.get_or_create(
            game=game, defaults={"requested_by": user}
        )
        if not created and not _needs_queueing(analysis):
            return analysis
        if not created:
            analysis.status, analysis.error = Analysis.Status.QUEUED, ""
            analysis.save(update_fields=["status", "error", "updated_at"])
        analysis_id = analysis.pk
        # robust: a broker blink leaves it queued; asking again after a failure requeues.
        transaction.on_commit(lambda: _task_queue(analysis_id), robust=True)
    return analysis


def _needs_queueing(analysis: Analysis) -> bool:
    """A failed analysis, or one whose task was lost (no progress for ``STALE``)."""
    if analysis.status == Analysis.Status.FAILED:
        return True
    waiting = analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
    return waiting and timezone.now() - analysis.updated_at >= STALE


def _task_queue(analysis_id: int) -> None:
    current_celery_app.tasks["analysis.tasks.analysis_run"].delay(analysis_id)


def _claim(analysis_id: int) -> Analysis | bool:
    """Mark the analysis running for this task; False if there is nothing to do, True if
    another run is on it (it saved progress less than ``STALE`` ago)."""
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
            return False
        fresh = timezone.now() - analysis.updated_at < STALE
        if analysis.status == Analysis.Status.RUNNING and fresh:
            return True
        analysis.status = Analysis.Status.RUNNING
        analysis.runs += 1
        analysis.save(update_fields=["status", "runs", "updated_at"])
        return analysis


def _think(function, *args):
    """``function(*args)`` in a thinking process when the embedded runner offers one."""
    if thinking.offload is not None:
        return thinking.offload(function, *args)
    return function(*args)


def analysis_run(*, analysis_id: int) -> bool:
    """Analyse every turn not yet analysed, saving each; nothing if done or being done.

    True when another run is on it: the task looks again later, and takes over if that
    run's worker died (re-delivered after a worker's death, it would find it running).
    """
    analysis = _claim(analysis_id)
    if isinstance(analysis, bool):
        return analysis
    game = Game.objects.get(pk=analysis.game_id)
    saved = Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING)
    try:
        views = engine_analysis.turn_views(game_record(game))
        turns = list(analysis.result.get("turns", []))[: len(views)]
        seed = f"game/{game.pk}"
        saved.update(total=len(views), done=len(turns))
        for turn in range(len(turns), len(views)):
            view, played, plant_view = views[turn]
            # Only the mover's views cross to the engine: it cannot know more than they did.
            turns.append(_think(engine_analysis.analyse_turn, view, played, seed, turn, plant_view))
            saved.update(result={"turns": turns}, done=len(turns), updated_at=timezone.now())
        players = engine_analysis.seat_totals(turns, game.seats.count())
        saved.update(
            status=Analysis.Status.DONE,
            result={"turns": turns, "players": players},
            finished_at=timezone.now(),
            updated_at=timezone.now(),
        )
    except DatabaseError:
        raise  # the task retries; the turns saved so far are kept
    except Exception as error:
        # A record the engine cannot analyse must not stay "running": say so, keep the turns.
        log.exception("analysis %s failed", analysis_id)
        saved.update(status=Analysis.Status.FAILED, error=str(error), updated_at=timezone.now())
    return False
