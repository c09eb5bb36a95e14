"""The arena of issue 45, played through the real services on PostgreSQL with a simulated clock.

Two minutes, ½+1, RandomBot, GreedyBot, StrongBot and alice (a person). Before the fair
pairing rule, the two fast bots were always the only two waiting and played each other
96 times while alice and StrongBot played 6 games each. Here every game is created by
``tournament_advance``, ended by its loser resigning through the games service and scored
by the scoring service, exactly as on the site; only the time is simulated (each player
spends a fixed number of seconds per game, the fast bots almost none), so the two
minutes take seconds and the outcome does not depend on the machine's load. Beat's tick
(every 5 s) advances the event between games, as in production.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import services as games
from tests.tournaments.conftest import make_tournament, new_bot, new_player
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db

#: Seconds each player spends on a game (a game lasts the sum of its two players').
THINKING = {"random": 0.5, "greedy": 1.0, "strong": 9.0, "person": 19.0}
#: Who beats whom: the stronger wins.
STRENGTH = {"random": 0, "greedy": 1, "person": 2, "strong": 3}
TICK = timedelta(seconds=5)


class SimulatedClock:
    """``timezone.now`` for the services: moves only when the test moves it."""

    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now


def test_the_issue_arena_shares_games_fairly_among_fast_and_slow_players():
    clock = SimulatedClock()
    with mock.patch("django.utils.timezone.now", clock):
        alice = new_player("alice")
        players = {
            "random": new_bot("random"),
            "greedy": new_bot("greedy"),
            "strong": new_bot("strong"),
            "person": alice,
        }
        kind_of = {user.pk: kind for kind, user in players.items()}
        tournament = make_tournament(
            alice,
            name="Two-minute arena",
            format="arena",
            rounds=None,
            duration_minutes=2,
            clock_initial=30,
            clock_increment=1,
        )
        services.tournament_join(tournament_id=tournament.pk, user=alice)
        for kind in ("random", "greedy", "strong"):
            services.tournament_enter_bot(tournament_id=tournament.pk, by=alice, bot=players[kind])
        clock.now = tournament.starts_at
        services.tournament_advance(tournament_id=tournament.pk)

        ends: dict[int, object] = {}  # pairing id -> when its game ends
        next_tick = clock.now + TICK
        while True:
            for pairing in Pairing.objects.filter(tournament=tournament, scored_at__isnull=True):
                if pairing.pk not in ends:
                    seats = [kind_of[p.entry.user_id] for p in pairing.players.all()]
                    length = sum(THINKING[kind] for kind in seats)
                    ends[pairing.pk] = clock.now + timedelta(seconds=length)
            due = [(when, pk) for pk, when in ends.items() if when is not None]
            soonest = min(due, default=None)
            if soonest is None or next_tick <= soonest[0]:
                clock.now = next_tick
                next_tick += TICK
            else:
                clock.now, pairing_id = soonest
                ends[pairing_id] = None
                game = Pairing.objects.get(pk=pairing_id).game
                seats = list(game.seats.select_related("user"))
                loser = min(seats, key=lambda s: STRENGTH[kind_of[s.user_id]]).user
                games.game_resign(game_id=game.pk, user=loser)
                games.game_score(game_id=game.pk)
            tournament = services.tournament_advance(tournament_id=tournament.pk)
            if tournament.status == Tournament.Status.FINISHED:
                break
            assert clock.now < tournament.starts_at + timedelta(minutes=10), "never finished"

    played = list(Pairing.objects.filter(tournament=tournament).prefetch_related("players"))
    meetings: Counter = Counter()
    games_of: Counter = Counter()
    for pairing in played:
        pair = frozenset(kind_of[p.entry.user_id] for p in pairing.players.all())
        meetings[pair] += 1
        games_of.update(pair)

    # Every player plays, the slow ones as often as the clock lets them.
    assert set(games_of) == set(players)
    assert min(games_of.values()) >= 3, games_of
    # No pair takes more than its fair share of either player's games: a third of them
    # (three possible opponents), plus one.
    for pair, count in meetings.items():
        fewest = min(games_of[kind] for kind in pair)
        assert count <= math.ceil(fewest / 3) + 1, (pair, count, games_of)
    # Nothing like 96 to 6: the fast pair played no more than twice the games of any other.
    fast = meetings[frozenset({"random", "greedy"})]
    assert fast <= 2 * min(meetings.values()), meetings
