"""What every game's bots share: the tie-breaking pick, the time budget, and UCB1 over arms
opened in prior order (progressive widening).

Below the games (each game's bots import it) and below ``engine.bots`` (which finds a game's
bots through its descriptor), so no game imports the module that dispatches to it.
"""

from __future__ import annotations

import math
import time

from engine.rng import Rng

#: UCB1 exploration constant (rewards are in [0, 1]).
EXPLORATION = 0.5
#: Progressive widening: root moves searched after n iterations (greedy order).
WIDEN_BASE = 6
WIDEN_PER_SQRT = 1.0
#: Share of the budget the strong bot plans to use; the rest absorbs the last iteration.
BUDGET_SHARE = 0.97


def pick_best(scored: dict, rng: Rng):
    """The key with the highest value; ties broken by ``rng`` over the sorted keys."""
    top = max(scored.values())
    return rng.choice(sorted(k for k, v in scored.items() if v == top))


def bandit(arms: int, pull, start: float, budget: float, iterations) -> int:
    """UCB1 over arms in prior order with progressive widening; the most pulled arm.

    ``pull(arm)`` plays the arm once and gives its reward in [0, 1]. The search stops
    ``budget`` seconds after ``start`` (``time.perf_counter``), or after ``iterations``
    pulls when that is not None.
    """
    visits = [0] * arms
    means = [0.0] * arms
    spread = [0.0] * arms  # 1 / sqrt(visits): the exploration term without its constant
    deadline = start + budget * BUDGET_SHARE
    clock = time.perf_counter
    total = opened = 0
    while (total < iterations) if iterations is not None else (clock() < deadline):
        width = min(arms, WIDEN_BASE + int(WIDEN_PER_SQRT * math.sqrt(total)))
        if opened < width:
            arm = opened  # arms open in prior order, each pulled once on opening
            opened += 1
        else:
            c = EXPLORATION * math.sqrt(math.log(total))
            scores = [m + c * d for m, d in zip(means[:width], spread[:width], strict=True)]
            arm = scores.index(max(scores))
        reward = pull(arm)
        visits[arm] += 1
        means[arm] += (reward - means[arm]) / visits[arm]
        spread[arm] = 1.0 / math.sqrt(visits[arm])
        total += 1
    return max(range(arms), key=lambda i: (visits[i], -i))
