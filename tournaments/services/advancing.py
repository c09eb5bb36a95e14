"""Advancing a running event: ended games scored, the next round or arena pairs, the finish
(with the season's results stored for a scheduled event).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Game
from tournaments.models import Pairing, PairingPlayer, Tournament
from tournaments.seasons import event_results_store
from tournaments.selectors import players_needed
from tournaments.services.pairings import _begin_round, _pair_next_round, _pair_waiting
from tournaments.services.starting import _start
from tournaments.services.writer import _active_entries, _changed, _locked
from tournaments.standings import game_outcome

#: A game ended this long ago and still unscored lost its scoring task.
SCORING_OVERDUE = timedelta(seconds=30)


def _score_game(tournament: Tournament, pairing: Pairing) -> bool:
    """Store the points of a pairing whose game has ended; False while it is still on."""
    game = pairing.game
    seats = {seat.index: seat for seat in game.seats.all()}
    if game.status == Game.Status.FINISHED:
        if any(seat.rank is None for seat in seats.values()):
            # Ended, not yet scored: the game_finished signal will follow, unless the
            # worker scoring it died; then ask for the scoring again (it runs once).
            if game.finished_at and game.finished_at < timezone.now() - SCORING_OVERDUE:
                from games.tasks import game_score

                game_id = game.pk
                transaction.on_commit(lambda: game_score.delay(game_id))
            return False
        places = [seats[p.seat].rank for p in pairing.players.all()]
    elif game.status == Game.Status.ABORTED:
        places = [None] * pairing.players.count()
    else:
        return False
    players = list(pairing.players.all())
    outcomes = tournament.format_rules.score_game(
        tournament, places, lambda seat: _earlier_outcomes(players[seat])
    )
    for player, place, outcome in zip(players, places, outcomes, strict=True):
        player.place = place
        player.points = outcome.points
        player.on_fire = outcome.on_fire
    PairingPlayer.objects.bulk_update(players, ["place", "points", "on_fire"])
    pairing.scored_at = timezone.now()
    pairing.save(update_fields=["scored_at"])
    return True


def _earlier_outcomes(player: PairingPlayer) -> list[str]:
    """The player's scored games in this event before this one: "win", "draw" or "loss"."""
    earlier = (
        PairingPlayer.objects.filter(entry=player.entry, pairing__scored_at__isnull=False)
        .exclude(pairing=player.pairing)
        .order_by("pairing_id")
    )
    words = {1.0: "win", 0.5: "draw", 0.0: "loss"}
    return [
        words[game_outcome(p.place, [q.place for q in p.pairing.players.all() if q.pk != p.pk])]
        for p in earlier.prefetch_related("pairing__players")
    ]


def _finish(tournament: Tournament) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    if tournament.schedule_entry_id is not None:
        # Under the tournament's lock, with its last points stored: the standings are final.
        event_results_store(tournament)


def _advance_rounds(tournament: Tournament) -> bool:
    current = tournament.round_set.filter(started_at__isnull=False).order_by("-number").first()
    if current is None or current.pairings.filter(scored_at__isnull=True).exists():
        return False
    current.finished_at = current.finished_at or timezone.now()
    current.save(update_fields=["finished_at"])
    last = current.number >= (tournament.rounds or 0)
    if last or len(_active_entries(tournament)) < players_needed(tournament):
        _finish(tournament)
    elif tournament.format_rules.fixed_schedule:
        _begin_round(tournament, tournament.round_set.get(number=current.number + 1))
    else:
        _pair_next_round(tournament, current.number + 1)
    return True


def _advance_without_rounds(tournament: Tournament, now) -> bool:
    """Pair whoever is free until the time is up; then finish once the last game is scored."""
    if now < tournament.ends_at:
        return bool(_pair_waiting(tournament))
    if not tournament.pairings.filter(scored_at__isnull=True).exists():
        _finish(tournament)
        return True
    return False


@transaction.atomic
def tournament_advance(*, tournament_id: int) -> Tournament:
    """Bring a tournament up to date: start it when due, score ended games, pair what is next.

    Safe to run any number of times, from any process, at once: the tournament row
    is locked, and every step looks at the stored state before acting.
    """
    tournament = _locked(tournament_id)
    now = timezone.now()
    changed = False
    if tournament.status == Tournament.Status.UPCOMING and tournament.starts_at <= now:
        _start(tournament)
        changed = True
    if tournament.status != Tournament.Status.RUNNING:
        if changed:
            _changed(tournament)
        return tournament
    pending = tournament.pairings.filter(scored_at__isnull=True, game__isnull=False)
    for pairing in pending.select_related("game").prefetch_related("players__entry"):
        changed |= _score_game(tournament, pairing)
    if tournament.format_rules.has_rounds:
        changed |= _advance_rounds(tournament)
    else:
        changed |= _advance_without_rounds(tournament, now)
    if changed:
        _changed(tournament)
    return tournament
