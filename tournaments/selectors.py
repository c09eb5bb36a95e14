"""Reads of the tournaments app: listings, standings, rounds, and pairing inputs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import User
from games import live
from tournaments import pairing as rules
from tournaments import standings as ranking
from tournaments.formats import Record
from tournaments.models import Entry, Pairing, PairingPlayer, Tournament

Status = Tournament.Status


def tournament_group(tournament_id: int) -> str:
    """The channel-layer group of a tournament's live page."""
    return live.tournament_group(tournament_id)


def tournaments_due() -> list[int]:
    """Ids of tournaments the beat job should advance: due to start, or running."""
    return list(
        Tournament.objects.filter(
            Q(status=Status.UPCOMING, starts_at__lte=timezone.now()) | Q(status=Status.RUNNING)
        )
        .order_by("starts_at", "pk")
        .values_list("pk", flat=True)
    )


def tournament_for_game(game_id: int) -> int | None:
    """The tournament a game was paired in, if any."""
    return Pairing.objects.filter(game_id=game_id).values_list("tournament_id", flat=True).first()


def tournaments_listing() -> dict[str, list[Tournament]]:
    """Upcoming (soonest first), running, and recently finished or cancelled tournaments
    (not the scheduled ones cancelled with no person entered)."""
    base = Tournament.objects.select_related("created_by", "schedule_entry").annotate(
        players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)),
        people=Count(
            "entries", filter=Q(entries__withdrawn_at__isnull=True, entries__user__is_bot=False)
        ),
    )
    return {
        "upcoming": list(base.filter(status=Status.UPCOMING).order_by("starts_at", "pk")),
        "running": list(base.filter(status=Status.RUNNING).order_by("started_at", "pk")),
        # A scheduled event no person entered (its house bots may have) is cancelled at
        # its start; listing each one (one an hour) would push every event that was
        # played off the list.
        "finished": list(
            base.filter(status__in=[Status.FINISHED, Status.CANCELLED])
            .exclude(status=Status.CANCELLED, schedule_entry__isnull=False, people=0)
            .order_by("-finished_at", "-pk")[:30]
        ),
    }


def _seeded(entries: Iterable[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-(e.rating or 0.0), e.pk))


def _seats(tournament: Tournament) -> list[PairingPlayer]:
    return list(
        PairingPlayer.objects.filter(pairing__tournament=tournament)
        .select_related("pairing")
        .order_by("pairing_id", "seat")
    )


def _by_pairing(seats: list[PairingPlayer]) -> dict[int, list[PairingPlayer]]:
    grouped: dict[int, list[PairingPlayer]] = defaultdict(list)
    for seat in seats:
        grouped[seat.pairing_id].append(seat)
    return grouped


def competitors_for(tournament: Tournament, entries: Iterable[Entry]) -> list[rules.Competitor]:
    """Pairing records (score, opponents met, first moves, byes) of the given entries."""
    grouped = _by_pairing(_seats(tournament))
    score: dict[int, float] = defaultdict(float)
    met: dict[int, set[int]] = defaultdict(set)
    firsts: dict[int, int] = defaultdict(int)
    seconds: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for seats in grouped.values():
        pairing = seats[0].pairing
        for seat in seats:
            score[seat.entry_id] += seat.points or 0.0
            if pairing.is_bye:
                byes[seat.entry_id] += 1
                continue
            met[seat.entry_id] |= {s.entry_id for s in seats if s is not seat}
            if pairing.game_id is not None:
                if seat.seat == 0:
                    firsts[seat.entry_id] += 1
                else:
                    seconds[seat.entry_id] += 1
    return [
        rules.Competitor(
            id=e.pk,
            score=score[e.pk],
            opponents=frozenset(met[e.pk]),
            firsts=firsts[e.pk],
            seconds=seconds[e.pk],
            byes=byes[e.pk],
            rating=e.rating or 0.0,
        )
        for e in entries
    ]


def arena_waiting(
    tournament: Tournament, entries: Iterable[Entry], now
) -> list[rules.ArenaWaiting]:
    """Arena pairing records of the given (idle) entries: score, whom they met and how
    often, first moves, and how long they have waited (since their last game was scored,
    or since the event began)."""
    competitors = {c.id: c for c in competitors_for(tournament, entries)}
    last: dict[int, int] = {}
    met: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    games: dict[int, int] = defaultdict(int)
    free_since: dict[int, object] = {}
    for seats in _by_pairing(_seats(tournament)).values():
        for seat in seats:
            others = [s.entry_id for s in seats if s is not seat]
            if others:
                last[seat.entry_id] = others[0]
                games[seat.entry_id] += 1
                for other in others:
                    met[seat.entry_id][other] += 1
            if seat.pairing.scored_at is not None:
                free_since[seat.entry_id] = max(
                    seat.pairing.scored_at, free_since.get(seat.entry_id, seat.pairing.scored_at)
                )
    began = tournament.started_at or now
    return [
        rules.ArenaWaiting(
            id=c.id,
            score=c.score,
            rating=c.rating,
            last_opponent=last.get(c.id),
            firsts=c.firsts,
            seconds=c.seconds,
            games=games[c.id],
            met=dict(met[c.id]),
            waited=max(0.0, (now - free_since.get(c.id, began)).total_seconds()),
        )
        for c in competitors.values()
    ]


@dataclass(frozen=True)
class StandingRow:
    """A line of the standings as the page shows it."""

    rank: int
    entry: Entry
    score: float
    tiebreaks: tuple[float, ...]
    games: int


def tiebreak_names(tournament: Tournament) -> tuple[str, ...]:
    """The tie-break columns of the tournament's format, in the order they apply."""
    return tournament.format_rules.tiebreak_names


def tiebreak_columns(tournament: Tournament) -> list[dict]:
    """The standings' tie-break columns: full name, short heading and what each one is."""
    rules_ = tournament.format_rules
    return [
        {"name": name, "short": short, "help": help_}
        for name, short, help_ in zip(
            rules_.tiebreak_names, rules_.tiebreak_shorts, rules_.tiebreak_help, strict=True
        )
    ]


#: How many of an arena's games a page lists (newest first).
ARENA_GAMES_PAGE = 20


def arena_sheets(tournament: Tournament) -> dict[int, dict]:
    """Each arena player's sheet, lichess's way: points of every scored game in order
    (streak-doubled ones marked), and whether their next game counts double."""
    sheets: dict[int, dict] = defaultdict(lambda: {"games": [], "on_fire": False})
    scored = (
        PairingPlayer.objects.filter(
            pairing__tournament=tournament, pairing__scored_at__isnull=False
        )
        .exclude(points__isnull=True)
        .order_by("pairing__scored_at", "pairing_id")
    )
    wins_in_row: dict[int, int] = defaultdict(int)
    for seat in scored.only("entry_id", "points", "on_fire", "place"):
        sheets[seat.entry_id]["games"].append({"points": int(seat.points), "fire": seat.on_fire})
        won = seat.place == 1 and (seat.points or 0) > (2 if seat.on_fire else 1)
        wins_in_row[seat.entry_id] = wins_in_row[seat.entry_id] + 1 if won else 0
    for entry_id, sheet in sheets.items():
        sheet["on_fire"] = wins_in_row[entry_id] >= 2
    return dict(sheets)


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The standings as they stand: every entrant, withdrawn ones included, by rank."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    order = [e.pk for e in _seeded(entries.values())]
    grouped = _by_pairing(_seats(tournament))
    results: list[ranking.TableResult] = []
    bye_points: dict[int, float] = defaultdict(float)
    game_sides: list[ranking.ArenaGame] = []
    for seats in grouped.values():
        pairing = seats[0].pairing
        if pairing.scored_at is None:
            continue
        if pairing.game_id is None:
            for seat in seats:
                bye_points[seat.entry_id] += seat.points or 0.0
            continue
        results.append(ranking.TableResult(points={s.entry_id: s.points or 0.0 for s in seats}))
        for seat in seats:
            for other in seats:
                if other is not seat:
                    game_sides.append(
                        ranking.ArenaGame(
                            player=seat.entry_id,
                            opponent=other.entry_id,
                            points=int(seat.points or 0),
                            outcome=ranking.game_outcome(seat.place, [other.place]),
                        )
                    )
    record = Record(
        players=order,
        results=results,
        bye_points=bye_points,
        games=game_sides,
        ratings={pk: e.rating or 0.0 for pk, e in entries.items()},
    )
    rows = tournament.format_rules.standings(record)
    return [
        StandingRow(
            rank=row.rank,
            entry=entries[row.player],
            score=row.score,
            tiebreaks=row.tiebreaks,
            games=row.games,
        )
        for row in rows
    ]


def standings_order(tournament: Tournament) -> list[int]:
    """Entry ids from first to last in the current standings."""
    return [row.entry.pk for row in tournament_standings(tournament)]


def tournament_rounds(tournament: Tournament) -> list[dict]:
    """Rounds (or, for an arena, one list of games) with their pairings, seats in order."""
    pairings = (
        tournament.pairings.select_related("round", "game")
        .prefetch_related("players__entry__user")
        .order_by("round__number", "board", "pk")
    )
    rounds: dict[int | None, list[Pairing]] = defaultdict(list)
    for pairing in pairings:
        rounds[pairing.round.number if pairing.round else None].append(pairing)
    return [{"number": number, "pairings": items} for number, items in rounds.items()]


def arena_games_page(tournament: Tournament, page) -> Page:
    """One page of an arena's games, newest first (``page`` as the query gives it)."""
    pairings = (
        tournament.pairings.select_related("game")
        .prefetch_related("players__entry__user")
        .order_by("-board", "-pk")
    )
    return Paginator(pairings, ARENA_GAMES_PAGE).get_page(page)


def current_round_number(tournament: Tournament) -> int:
    """The number of the latest round begun (0 before the first)."""
    latest = tournament.round_set.filter(started_at__isnull=False).order_by("-number").first()
    return latest.number if latest else 0


def tournament_entry_for(tournament: Tournament, user) -> Entry | None:
    """The user's entry, if they are in the tournament (withdrawn or not)."""
    if user is None or not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


def current_game_of(tournament: Tournament, user) -> int | None:
    """The id of the game ``user`` is playing in the tournament now, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Pairing.objects.filter(
            tournament=tournament,
            scored_at__isnull=True,
            game__isnull=False,
            players__entry__user=user,
        )
        .order_by("-pk")
        .values_list("game_id", flat=True)
        .first()
    )


def tournament_of_game(game_id: int) -> Tournament | None:
    """The tournament a game was paired in, if any."""
    pairing = Pairing.objects.filter(game_id=game_id).select_related("tournament").first()
    return pairing.tournament if pairing else None


def bots_available(tournament: Tournament) -> list:
    """Bots not yet entered, for the creator's "enter a bot" list."""
    return list(
        User.objects.filter(is_bot=True)
        .exclude(tournament_entries__tournament=tournament)
        .order_by("username")
    )


def tournaments_of(user, limit: int = 20) -> list[dict]:
    """A player's tournaments, latest first, with their rank where the event has begun."""
    entries = (
        Entry.objects.filter(user=user)
        .select_related("tournament")
        .order_by("-tournament__starts_at", "-pk")[:limit]
    )
    listed = []
    for entry in entries:
        tournament = entry.tournament
        rank = None
        if tournament.status in (Status.RUNNING, Status.FINISHED):
            rank = next(
                (r.rank for r in tournament_standings(tournament) if r.entry.pk == entry.pk), None
            )
        listed.append({"tournament": tournament, "rank": rank, "entry": entry})
    return listed


def players_needed(tournament: Tournament) -> int:
    """The fewest active players a tournament starts (and goes on) with, by its format."""
    return tournament.format_rules.min_players(tournament.table_size)
