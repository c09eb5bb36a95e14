"""Whole tournaments of bots run by the real processes: Celery beat starts them, the worker
plays the bots and pairs the rounds, PostgreSQL and Redis in between, the web server shows
the final table. The expected standings are worked out here from the stored games by a
separate, plain implementation of the scoring and tie-break rules.
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections import Counter, defaultdict
from itertools import combinations

import pytest

from games.models import Game
from tests.support import servers
from tests.tournaments.conftest import make_due, make_tournament, new_bot, new_player
from tournaments import services
from tournaments.models import Pairing, Round, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery,
    pytest.mark.slow,
]

#: How long a whole event may take before the test gives up (a deadline, not a measure).
PATIENCE = 240


@pytest.fixture(scope="module")
def celery_beat(server_env, server_logs):
    """Beat as production runs it, but sending the tick that starts events and the sweep
    that queues again the bot turns a killed worker took with it every second, not every
    5 s: the events start, and recover, without idle seconds (only the intervals change,
    through ``BEAT_INTERVALS``)."""
    env = {**server_env, "BEAT_INTERVALS": "games-sweep=1,tournaments-tick=1"}
    proc = servers.start_beat(env, server_logs)
    yield proc
    proc.stop()


def wait_until(check, what: str):
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting: {what}")


def bots_tournament(count: int, **settings) -> Tournament:
    creator = new_player()
    tournament = make_tournament(
        creator, kind="wizards_garden", clock_initial=120, max_players=count, **settings
    )
    for _ in range(count):
        services.tournament_enter_bot(tournament_id=tournament.pk, by=creator, bot=new_bot())
    make_due(tournament)
    return tournament


def finished(tournament: Tournament) -> bool:
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.CANCELLED, tournament.note
    return tournament.status == Tournament.Status.FINISHED


def table_from_games(tournament: Tournament) -> dict[str, tuple]:
    """username -> (rank, score, Buchholz, Sonneborn-Berger), from the games' seat ranks."""
    score: dict[str, float] = defaultdict(float)
    meetings: list[tuple[str, str, float]] = []  # (player, opponent, player's points)
    for pairing in Pairing.objects.filter(tournament=tournament).prefetch_related(
        "players__entry__user", "game__seats__user"
    ):
        if pairing.game is None:
            (bye,) = pairing.players.all()
            score[bye.entry.user.username] += 1
            continue
        seats = list(pairing.game.seats.all())
        assert pairing.game.status == Game.Status.FINISHED
        for seat in seats:
            other = next(s for s in seats if s is not seat)
            points = 1.0 if seat.rank < other.rank else 0.5 if seat.rank == other.rank else 0.0
            score[seat.user.username] += points
            meetings.append((seat.user.username, other.user.username, points))
    buchholz: dict[str, float] = defaultdict(float)
    sonneborn: dict[str, float] = defaultdict(float)
    for player, opponent, points in meetings:
        buchholz[player] += score[opponent]
        sonneborn[player] += score[opponent] * points
    keys = {p: (score[p], buchholz[p], sonneborn[p]) for p in score}
    return {p: (1 + sum(k > keys[p] for k in keys.values()), *keys[p]) for p in keys}


def page_table(base_url: str, tournament: Tournament) -> dict[str, tuple]:
    """username -> (rank, points, Buchholz, Sonneborn-Berger) as the tournament page shows it."""
    with urllib.request.urlopen(f"{base_url}/tournaments/{tournament.pk}/") as response:
        html = response.read().decode()
    table = html[html.index('id="standings"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r'<tr data-player="([^"]+)">(.*?)</tr>', table, re.S)
    shown = {}
    for username, cells in rows:
        numbers = re.findall(r'<td class="num[^"]*">([^<]*)</td>', cells)
        rank, points, buchholz, sonneborn, _games = (float(n) for n in numbers)
        shown[username] = (int(rank), points, buchholz, sonneborn)
    return shown


def check_rounds(tournament: Tournament, players: int, rounds: int) -> list[frozenset]:
    """Every round seats everyone once; first moves stay balanced; returns the meetings."""
    balance: Counter = Counter()
    met = []
    for number in range(1, rounds + 1):
        round_ = Round.objects.get(tournament=tournament, number=number)
        seated = []
        for pairing in round_.pairings.prefetch_related("players", "game__seats"):
            entries = [p.entry_id for p in pairing.players.all()]
            seated += entries
            if pairing.game is None:
                continue
            # The game's seats are the pairing's, in the same order: seat 0 moved first.
            assert [s.user_id for s in pairing.game.seats.all()] == [
                p.entry.user_id for p in pairing.players.all()
            ]
            balance[entries[0]] += 1
            balance[entries[1]] -= 1
            met.append(frozenset(entries))
        assert sorted(seated) == sorted(set(seated)) and len(seated) == players
        assert all(abs(b) <= 1 for b in balance.values())
    return met


def test_eight_bots_play_a_whole_swiss_through_a_worker_restart(
    server_env, server_logs, celery_beat, asgi_server
):
    worker = servers.start_worker(server_env, server_logs)
    try:
        tournament = bots_tournament(8, format="swiss", rounds=3)
        wait_until(
            lambda: Pairing.objects.filter(
                round__tournament=tournament, game__isnull=False
            ).exists(),
            "round 1 to be paired by beat",
        )
        # A worker killed mid-round: a new one (with beat's tick) finishes the event.
        worker.kill()
        worker = servers.start_worker(server_env, server_logs)
        wait_until(lambda: finished(tournament), "the Swiss to finish")
    finally:
        worker.stop()

    met = check_rounds(tournament, players=8, rounds=3)
    assert len(met) == 12 and len(set(met)) == 12, "no two bots met twice"
    assert Round.objects.filter(tournament=tournament).count() == 3
    expected = table_from_games(tournament)
    assert len(expected) == 8
    assert page_table(asgi_server, tournament) == expected


def test_six_bots_play_a_whole_round_robin(server_env, celery_worker, celery_beat, asgi_server):
    tournament = bots_tournament(6, format="round_robin", rounds=None)
    wait_until(
        lambda: Round.objects.filter(tournament=tournament).count() == 5,
        "the whole schedule to be made at the start",
    )
    schedule = {
        frozenset(p.entry_id for p in pairing.players.all())
        for pairing in Pairing.objects.filter(tournament=tournament).prefetch_related("players")
    }
    wait_until(lambda: finished(tournament), "the round robin to finish")

    met = check_rounds(tournament, players=6, rounds=5)
    entries = list(tournament.entries.values_list("pk", flat=True))
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(entries, 2)), key=sorted
    )
    assert set(met) == schedule, "the schedule made at the start was played as made"
    expected = table_from_games(tournament)
    assert sum(row[1] for row in expected.values()) == 15
    assert page_table(asgi_server, tournament) == expected
