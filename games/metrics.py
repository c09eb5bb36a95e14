"""Gauges of live play read at each scrape of ``/metrics`` (added in ``GamesConfig.ready``)."""

from __future__ import annotations

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily

from engine.games import game_names
from games.models import Game


class LiveGames:
    """Games in play, by kind, and those waiting for a bot's move."""

    def collect(self):
        live = GaugeMetricFamily("topiary_live_games", "Games in play", labels=["kind"])
        rows = (
            Game.objects.filter(status=Game.Status.ACTIVE)
            .values("kind")
            .annotate(n=Count("id"))
            .order_by()
        )
        counts = {row["kind"]: row["n"] for row in rows}
        for kind in game_names():
            live.add_metric([kind], counts.get(kind, 0))
        yield live

        waiting = GaugeMetricFamily(
            "topiary_bot_turns_waiting", "Active games waiting for a bot's move"
        )
        waiting.add_metric(
            [], Game.objects.filter(status=Game.Status.ACTIVE, bot_to_move=True).count()
        )
        yield waiting
