"""Topiary's analyst: what each candidate move of a turn is worth, deal by deal.

The value of a move is the mover's expected final margin (own total minus the best other
seat's total) over the hidden tiles, by Monte Carlo: ``SAMPLES`` deals of the tiles the
mover has not seen (``fastplay.Dealer``, the bots' determinizations), and from each, the
move, then random play by everyone to the end (the strong bot's playouts). Every candidate
is played on the same deals with the same playout stream (common random numbers), so the
difference between two moves is measured with far less noise than either value. The
candidates are the ``CANDIDATES`` best whole moves by greedy's exact one-turn expectation
(``bots.expected_scores`` with rivals) and the move played. A take is judged as the record
writes the turn (``join_steps``): taking the cell and planting the named hand tile, or
``*``, the tile taken. Draft turns are not analysed (``None``).

``engine.analysis`` turns the margins into the turn's verdict (``GAME.analyst``).
"""

from __future__ import annotations

import random

from engine.rng import Rng
from engine.topiary.bots import expected_scores, margin
from engine.topiary.fastplay import Dealer, playout
from engine.topiary.moves import move_name
from engine.topiary.view import View

#: Deals of the unseen tiles per turn, shared by every candidate.
SAMPLES = 1024
#: The best moves by greedy's one-turn expectation that are searched.
CANDIDATES = 16


def margins(view: View, played: str, rng: Rng) -> dict[str, list[int]] | None:
    """Per candidate whole move from ``view`` (the mover's, before the turn; ``played``
    among them): the mover's final margin on each deal. None for a draft turn."""
    if view.phase != "play":
        return None
    codes = {move_name(code): code for code in view.move_codes()}
    played_code = codes[played]
    greedy = expected_scores(view, rivals=True)
    ranked = sorted(codes.values(), key=lambda code: (-greedy[code], code))
    candidates = list(dict.fromkeys([*ranked[:CANDIDATES], played_code]))
    dealer = Dealer(view)
    seat = view.seat
    deal_rand = random.Random(rng.next_u64())
    found = {code: [] for code in candidates}
    for _ in range(SAMPLES):
        table = dealer.deal(deal_rand)
        playout_seed = deal_rand.getrandbits(64)
        for code in candidates:
            line = table.copy()
            line.play(code)
            playout(line, random.Random(playout_seed).random)
            total, _hand = line.totals()
            found[code].append(margin(total, seat))
    return {move_name(code): deals for code, deals in found.items()}
