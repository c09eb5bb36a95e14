"""Play seeded self-play games between the house bots and mine them into training puzzles."""

import gzip
import json
import time

from django.core.management.base import BaseCommand, CommandError

from engine import mining
from puzzles import services


class Command(BaseCommand):
    help = (
        "Play self-play games START .. START+N-1 of a seed between the house bots (levels "
        "and deals drawn from the seed) and mine them: into the training pool, or with "
        "--output into a JSON-lines file (gzip if it ends in .gz). Deterministic for a seed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--seed", required=True, help="The self-play seed (any text).")
        parser.add_argument("--games", type=int, required=True, help="How many games.")
        parser.add_argument("--start", type=int, default=0, help="First game index (0).")
        parser.add_argument(
            "--kind", default="topiary", choices=sorted(mining.MINERS), help="The game."
        )
        parser.add_argument("--output", help="Write the puzzles to this file instead.")
        parser.add_argument(
            "--depths", help="Mine only these K, e.g. 1,2 (default: the game's miner's own)."
        )
        parser.add_argument(
            "--seats",
            help="The cycle of table sizes, e.g. 4,2,2: game I has the (I mod 3)-th "
            "(default: the game's own cycle, engine.mining.SELF_PLAY_SEATS).",
        )

    def handle(self, *args, seed, games, start, kind, output, seats, depths, **options):
        if games < 1 or start < 0:
            raise CommandError("--games must be at least 1 and --start at least 0")
        try:
            cycle = tuple(int(n) for n in seats.split(",")) if seats else None
            ks = tuple(int(n) for n in depths.split(",")) if depths else None
        except ValueError:
            raise CommandError("--seats and --depths take numbers, e.g. 4,2,2") from None
        began = time.process_time()
        if output:
            opener = gzip.open if output.endswith(".gz") else open
            count = 0
            with opener(output, "wt", encoding="utf-8") as out:
                for index in range(start, start + games):
                    for mined in mining.mine_self_play(kind, seed, index, seats=cycle, depths=ks):
                        line = {**mined.to_json(), "seed": f"{seed}/{index}"}
                        out.write(json.dumps(line, sort_keys=True) + "\n")
                        count += 1
            added = f"{count} written to {output}"
        else:
            count, new = services.self_play_mine(
                kind=kind, seed=seed, start=start, games=games, seats=cycle, depths=ks
            )
            added = f"{count} mined, {new} new in the pool"
        seconds = time.process_time() - began
        self.stdout.write(f"{kind}: {games} games, {added}, {seconds:.1f} CPU seconds")
