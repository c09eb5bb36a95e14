"""Where the test suite's time goes: each test's set-up, call and teardown, per module.

Record (a pytest plugin; ``python -m pytest`` puts the checkout on the path)::

    SUITE_PHASES=/tmp/phases.jsonl .venv/bin/python -m pytest -p bench.suite_phases ...

Report (the top modules, with set-up, call and teardown apart: module and session
fixtures' start-ups land in the set-up of a module's first test, their stops in its last
teardown, and the database flush of a transactional test in its teardown)::

    .venv/bin/python -m bench.suite_phases /tmp/phases.jsonl [--top 25]
"""

from __future__ import annotations

import argparse
import collections
import json
import os

_out = None


def pytest_runtest_logreport(report):
    global _out
    if _out is None:
        _out = open(os.environ.get("SUITE_PHASES", "suite-phases.jsonl"), "a")  # noqa: SIM115
    line = {"id": report.nodeid, "when": report.when, "d": report.duration, "o": report.outcome}
    _out.write(json.dumps(line) + "\n")
    _out.flush()


def report(path: str, top: int) -> None:
    modules: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    phases = {"setup": 0, "call": 1, "teardown": 2}
    with open(path) as lines:
        for line in lines:
            record = json.loads(line)
            row = modules[record["id"].split("::")[0]]
            row[phases[record["when"]]] += record["d"]
            row[3] += record["when"] == "call"
    total = sum(sum(row[:3]) for row in modules.values())
    print(f"{len(modules)} modules, {total:.0f} s in all\n")
    print("| module | tests | total s | set-up | call | teardown |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, row in sorted(modules.items(), key=lambda item: -sum(item[1][:3]))[:top]:
        print(
            f"| {name} | {row[3]} | {sum(row[:3]):.1f} | {row[0]:.1f} | {row[1]:.1f} "
            f"| {row[2]:.1f} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--top", type=int, default=25)
    arguments = parser.parse_args()
    report(arguments.path, arguments.top)
