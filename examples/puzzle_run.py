"""Play one Puzzle Streak or Puzzle Storm on Topiary Online with Python's standard library.

It starts a run, answers each puzzle the run serves (building the line one move at a time
with the ``play`` endpoint, which also gives the opponent's replies in Wizards' Garden) and
stops when the run is over: a streak at its first mistake, a storm at its deadline. It
plays the first legal move at every step: put your solver in ``choose``.

    TOPIARY_URL=https://topiary.example TOPIARY_TOKEN=tpy_... python puzzle_run.py storm
"""

import json
import os
import sys
import urllib.error
import urllib.request

SITE = os.environ.get("TOPIARY_URL", "http://127.0.0.1:8000").rstrip("/")
# A token with the puzzle:write scope.
TOKEN = os.environ["TOPIARY_TOKEN"]


def call(method, path, body=None):
    """One request with the token; raises urllib.error.HTTPError on a refusal."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        SITE + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def choose(puzzle, progress):
    """Your solver: the next move, given the position after your moves so far."""
    return progress["legal_moves"][0]


def solve(puzzle):
    """A complete line for the puzzle: up to ``k`` moves of the solver's seat."""
    moves = []
    progress = {
        "position": puzzle["position"],
        "legal_moves": puzzle["legal_moves"],
        "left": puzzle["k"],
    }
    while progress["left"] and progress["legal_moves"]:
        moves.append(choose(puzzle, progress))
        line = {"seat": puzzle["seat"], "moves": moves}
        progress = call("POST", f"/api/puzzles/training/{puzzle['id']}/play", line)
    return moves


def main(mode):
    run = call("POST", "/api/puzzles/runs", {"mode": mode})
    while not run["over"]:
        puzzle = run["puzzle"]
        # The answer names its puzzle: if it is resent, or the run has moved on, it is refused
        # (409 stale or finished) rather than counted twice or judged against another puzzle.
        answer = {"puzzle": puzzle["id"], "seat": puzzle["seat"], "moves": solve(puzzle)}
        try:
            verdict = call("POST", f"/api/puzzles/runs/{run['id']}/submit", answer)
        except urllib.error.HTTPError as refusal:
            print(f"refused: {json.load(refusal)}", file=sys.stderr)
            run = call("GET", f"/api/puzzles/runs/{run['id']}")
            continue
        if verdict["late"]:
            print("too late: the storm's time was up before the answer arrived")
        else:
            print(f"puzzle {puzzle['id']}: {verdict['score']} / {verdict['optimum']}")
        run = verdict["run"]
    print(f"{mode} over: {run['score']} solved, {run['mistakes']} mistakes", flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "streak")
