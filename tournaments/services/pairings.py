"""Pairing: rounds stored and begun (byes and forfeits scored), arena players paired as
they come free, and each table's game created.
"""

from __future__ import annotations

from django.utils import timezone

from tournaments.models import Entry, Pairing, PairingPlayer, Round, Tournament
from tournaments.pairing import RoundPairing
from tournaments.selectors import arena_waiting, competitors_for, standings_order
from tournaments.services.writer import _active_entries


def _create_game(tournament: Tournament, pairing: Pairing, entries: list[Entry]) -> None:
    from games.services import game_create

    pairing.game = game_create(
        kind=tournament.kind,
        players=[entry.user for entry in entries],
        options={},
        rated=tournament.rated,
        clock_initial=tournament.clock_initial,
        clock_increment=tournament.clock_increment,
        correspondence_days=None,
        first_player=0,
        created_by=tournament.created_by,
        in_event=True,
    )
    pairing.save(update_fields=["game"])


def _add_pairing(
    tournament: Tournament, round_: Round | None, board: int, entries: list[Entry]
) -> Pairing:
    pairing = Pairing.objects.create(
        tournament=tournament, round=round_, board=board, is_bye=len(entries) == 1
    )
    PairingPlayer.objects.bulk_create(
        [PairingPlayer(pairing=pairing, entry=e, seat=i) for i, e in enumerate(entries)]
    )
    return pairing


def _store_round(
    tournament: Tournament, number: int, plan: RoundPairing, entries: dict[int, Entry]
) -> Round:
    """Store a paired round: its tables on the first boards, then one board per bye."""
    round_ = Round.objects.create(tournament=tournament, number=number)
    for board, table in enumerate([*plan.tables, *((pk,) for pk in plan.byes)], start=1):
        _add_pairing(tournament, round_, board, [entries[pk] for pk in table])
    return round_


def _score_without_game(pairing: Pairing, points: dict[int, float], forfeit: bool) -> None:
    for player in pairing.players.all():
        player.points = points[player.entry_id]
        player.place = 1 if points[player.entry_id] else None
        player.forfeit = forfeit and bool(points[player.entry_id])
        player.save(update_fields=["points", "place", "forfeit"])
    pairing.scored_at = timezone.now()
    pairing.save(update_fields=["scored_at"])


def _begin_round(tournament: Tournament, round_: Round) -> None:
    """Start a round whose pairings are stored: byes and forfeits are scored, games created."""
    format_rules = tournament.format_rules
    round_.started_at = timezone.now()
    round_.save(update_fields=["started_at"])
    for pairing in round_.pairings.prefetch_related("players__entry__user"):
        seated = [p.entry for p in pairing.players.all()]
        if pairing.is_bye:
            points = format_rules.bye_points(tournament)
            _score_without_game(pairing, {seated[0].pk: points}, forfeit=False)
            continue
        present = [e for e in seated if e.withdrawn_at is None]
        if len(present) < len(seated):
            # A pairing stored before someone withdrew (round robin): the one still here wins.
            win = format_rules.forfeit_points(tournament)
            points = {e.pk: (win if e in present else 0.0) for e in seated}
            _score_without_game(pairing, points, forfeit=True)
            continue
        _create_game(tournament, pairing, seated)


def _pair_next_round(tournament: Tournament, number: int) -> Round:
    """Pair and begin round ``number`` from the standings so far."""
    entries = {e.pk: e for e in _active_entries(tournament)}
    competitors = competitors_for(tournament, entries.values())
    plan = tournament.format_rules.pair_round(competitors, tournament.table_size)
    round_ = _store_round(tournament, number, plan, entries)
    _begin_round(tournament, round_)
    return round_


def _open_rounds(tournament: Tournament, entries: list[Entry]) -> None:
    """Store the rounds the format pairs at the start, and begin the first."""
    format_rules = tournament.format_rules
    competitors = competitors_for(tournament, entries)
    planned = format_rules.first_rounds(competitors, tournament.table_size)
    if format_rules.fixed_schedule:
        tournament.rounds = len(planned)
        tournament.save(update_fields=["rounds"])
    by_id = {e.pk: e for e in entries}
    stored = [
        _store_round(tournament, number, plan, by_id)
        for number, plan in enumerate(planned, start=1)
    ]
    _begin_round(tournament, stored[0])


def _pair_waiting(tournament: Tournament) -> int:
    """Pair the players who are not at a board (no rounds); returns how many games began.

    Players still at a board count as ``others_busy``: the format may hold a pair back
    for them rather than repeat a game (docs/TOURNAMENTS.md, "Arena")."""
    busy = set(
        PairingPlayer.objects.filter(
            pairing__tournament=tournament, pairing__scored_at__isnull=True
        ).values_list("entry_id", flat=True)
    )
    entries = {e.pk: e for e in _active_entries(tournament)}
    idle = [e for pk, e in entries.items() if pk not in busy]
    format_rules = tournament.format_rules
    pairs = format_rules.pair_waiting(
        arena_waiting(tournament, idle, timezone.now()),
        standings_order(tournament),
        others_busy=len(busy & entries.keys()),
        hold=format_rules.hold_seconds(tournament),
    )
    board = tournament.pairings.count()
    for board_offset, pair in enumerate(pairs, start=1):
        seated = [entries[pk] for pk in pair]
        pairing = _add_pairing(tournament, None, board + board_offset, seated)
        _create_game(tournament, pairing, seated)
    return len(pairs)
