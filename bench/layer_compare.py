"""Our channel layer beside channels_redis's ``RedisPubSubChannelLayer``, in one sitting.

``python bench/layer_compare.py --rounds 3`` runs ``bench/live_load.py`` once per layer
(``--layer ours`` / ``--layer pubsub``) for each measure below, alternating which layer
goes first from one round to the next (A B, B A, A B, ...), so that a machine whose speed
drifts within the hour (docs/BENCHMARKS.md, "Machines") weighs on both alike:

- ``play50``: 50 games for 20 s, with the echo floor (the machine's yardstick);
- ``play500``: 500 games for 60 s, no echo;
- ``idle``: one socket per player of 50 games held open, sending nothing, for
  ``--idle`` seconds (an hour is too long for a shared machine: the per-minute cost
  is measured over a few minutes, and the hour's is 60 times it);
- ``restart``: 10 games for 30 s with Redis stopped for 2 s a third of the way in.

``--layers ours ours-redis-py`` alternates ours with ours without ``kit.redis_line``
instead (decision 0014). Every run has a redis-server of its own (``--own-redis``):
Redis's CPU and command counts are the run's alone, not the shared server's.
``--only`` picks measures; ``--first-rounds`` limits the heavy ones (``play500``,
``idle``, ``restart``) to the first rounds. Each run's JSON line goes to ``--out``; at
the end (or with ``--summarize FILE``) a table of medians and ranges per layer is printed.

Environment as for live_load.py (``BENCH_DATABASE_URL`` naming a ``*bench`` database,
which is migrated once and copied for every run).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

HERE = Path(__file__).resolve().parent
LAYERS = ("ours", "ours-redis-py", "pubsub")

MEASURES = {
    "play50": ["--games", "50", "--seconds", "20"],
    "play500": ["--games", "500", "--seconds", "60", "--no-echo", "--per-pair", "6"],
    "idle": ["--games", "50"],  # --idle added from the command line
    "restart": ["--games", "10", "--seconds", "30", "--redis-restart", "2", "--no-echo"],
}
HEAVY = {"play500", "idle", "restart"}


def template_ready(database_url: str) -> str:
    """A database migrated once, the template every run's database is copied from."""
    import psycopg

    sys.path.insert(0, str(HERE.parent))
    from bench.live_load import database_fresh

    name = urlparse(database_url).path.lstrip("/")
    template = f"{name}_template"
    database_fresh(database_url)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "topiary_site.settings",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=HERE.parent,
        env=env,
        check=True,
    )
    admin = urlunparse(urlparse(database_url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{template}"')
        conn.execute(f'CREATE DATABASE "{template}" TEMPLATE "{name}"')
    return template


def run(measure: str, layer: str, args, template: str) -> dict:
    options = MEASURES[measure]
    if measure == "play500":
        options = [*options[:-1], str(args.per_pair_500)]
    command = [
        sys.executable,
        str(HERE / "live_load.py"),
        *options,
        *(["--idle", str(args.idle)] if measure == "idle" else []),
        "--layer",
        layer,
        "--own-redis",
        "--logs",
        str(args.logs / f"{measure}-{layer}"),
    ]
    started = time.monotonic()
    done = subprocess.run(
        command,
        env={**os.environ, "BENCH_DATABASE_TEMPLATE": template},
        capture_output=True,
        text=True,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    result = (
        json.loads(lines[-1]) if done.returncode == 0 and lines else {"error": done.stderr[-2000:]}
    )
    return {
        "measure": measure,
        "layer": layer,
        "took_s": round(time.monotonic() - started, 1),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        **result,
    }


#: (label, how to read it from a run) per measure.
COLUMNS = {
    "play": [
        ("moves/s", lambda r: r["moves_per_s"]),
        ("round trip p50 ms", lambda r: r["rtt_p50_ms"]),
        ("round trip p99 ms", lambda r: r["rtt_p99_ms"]),
        ("round trip max ms", lambda r: r["rtt_max_ms"]),
        ("a game's last move p50 ms", lambda r: r["rtt_p50_p99_ms_by_phase"]["last"][0]),
        ("server CPU ms/move", lambda r: r["cpu_ms_per_move"]["total"]),
        ("web CPU ms/move", lambda r: r["cpu_ms_per_move"]["web"]),
        ("Redis CPU ms/move", lambda r: r["cpu_ms_per_move"]["redis"]),
        ("Redis commands/move", lambda r: r["redis_commands_per_move"]),
        ("clients' cores used", lambda r: r["clients_cores_used"]),
        ("sockets that failed", lambda r: r["connect_failures"]),
        ("resyncs", lambda r: r["resyncs"]),
        ("echo p99 ms", lambda r: r["echo_p99_ms"]),
    ],
    "idle": [
        ("sockets open at the end", lambda r: f"{r['open_at_end']}/{r['sockets']}"),
        ("web CPU ms/min", lambda r: r["idle_per_minute"]["web_cpu_ms"]),
        ("Redis CPU ms/min", lambda r: r["idle_per_minute"]["redis_cpu_ms"]),
        ("Redis commands/min", lambda r: r["idle_per_minute"]["redis_commands"]),
    ],
    "restart": [
        ("games moving before", lambda r: r["redis_restart"]["games_moving_before"]),
        ("games not moving again", lambda r: r["redis_restart"]["games_not_moving_again"]),
        ("moving again after, p50 s", lambda r: r["redis_restart"]["back_p50_s"]),
        ("moving again after, max s", lambda r: r["redis_restart"]["back_max_s"]),
        ("longest gap s", lambda r: r["redis_restart"]["gap_max_s"]),
        ("reconnects", lambda r: r["reconnects"]),
        ("resyncs", lambda r: r["resyncs"]),
        ("sockets that failed", lambda r: r["connect_failures"]),
    ],
}


def _cell(values: list) -> str:
    """The median and, over several runs, the range."""
    if not values:
        return "-"
    if any(isinstance(value, str) or value is None for value in values):
        return ", ".join(str(value) for value in values)
    middle = statistics.median(values)
    middle = round(middle, 2) if isinstance(middle, float) else middle
    if len(values) == 1:
        return str(middle)
    return f"{middle} ({min(values)}-{max(values)})"


def summarize(results: list[dict]) -> str:
    results = [result for result in results if "measure" in result]
    layers = [layer for layer in LAYERS if any(r["layer"] == layer for r in results)]
    out = []
    for measure in MEASURES:
        runs = {
            layer: [r for r in results if r["measure"] == measure and r["layer"] == layer]
            for layer in LAYERS
        }
        if not any(runs.values()):
            continue
        kind = "play" if measure.startswith("play") else measure
        counts = ", ".join(f"{layer} {len(runs[layer])} runs" for layer in layers)
        out.append(f"\n{measure} ({counts}; median (min-max))\n")
        out.append(f"| | {' | '.join(layers)} |")
        out.append("|---|" + "---|" * len(layers))
        for label, read in COLUMNS[kind]:
            cells = []
            for layer in layers:
                values = []
                for result in runs[layer]:
                    try:
                        values.append(read(result))
                    except (KeyError, TypeError):
                        values.append("failed")
                cells.append(_cell(values))
            out.append(f"| {label} | {' | '.join(cells)} |")
        loads = [r["load_average"][0] for layer in layers for r in runs[layer]]
        out.append(f"| load average (1 min) at the end | {min(loads)}-{max(loads)} | |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--first-rounds", type=int, default=2, help="rounds that run the heavy measures"
    )
    parser.add_argument("--only", nargs="+", choices=list(MEASURES), default=list(MEASURES))
    parser.add_argument("--idle", type=float, default=120)
    parser.add_argument(
        "--layers",
        nargs=2,
        choices=LAYERS,
        default=["ours", "pubsub"],
        help="the two layers to alternate (ours-redis-py: ours without kit.redis_line)",
    )
    parser.add_argument("--first", choices=LAYERS, help="the layer that goes first in round one")
    parser.add_argument(
        "--per-pair-500",
        type=int,
        default=6,
        help="games made per pair at 500 (a loaded machine plays <1 a minute)",
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/topiary-layer-compare.jsonl"))
    parser.add_argument("--logs", type=Path, default=Path("/tmp/topiary-layer-compare"))
    parser.add_argument(
        "--reuse-template",
        action="store_true",
        help="the migrated template of an earlier run is current",
    )
    parser.add_argument("--summarize", type=Path, help="only print the table of a finished --out")
    args = parser.parse_args()
    if args.summarize:
        results = [
            json.loads(line) for line in args.summarize.read_text().splitlines() if line.strip()
        ]
        print(summarize(results))
        return
    sys.path.insert(0, str(HERE.parent))
    from bench.live_load import bench_urls
    from bench.machine import describe

    database_url, _ = bench_urls()
    template = (
        f"{urlparse(database_url).path.lstrip('/')}_template"
        if args.reuse_template
        else template_ready(database_url)
    )
    args.logs.mkdir(parents=True, exist_ok=True)
    results = []
    with args.out.open("a") as out:
        out.write(json.dumps({"machine": describe()}) + "\n")
        for round_number in range(args.rounds):
            layers = args.layers
            first = layers if args.first in (None, layers[0]) else layers[::-1]
            order = first if round_number % 2 == 0 else first[::-1]
            for measure in args.only:
                if measure in HEAVY and round_number >= args.first_rounds:
                    continue
                if measure == "idle" and round_number >= 1:
                    continue  # one pair: its per-minute figures are steady
                for layer in order:
                    result = run(measure, layer, args, template)
                    results.append(result)
                    out.write(json.dumps(result) + "\n")
                    out.flush()
                    print(
                        json.dumps(
                            {k: result.get(k) for k in ("measure", "layer", "took_s", "error")}
                        ),
                        flush=True,
                    )
    print(summarize(results))


if __name__ == "__main__":
    main()
