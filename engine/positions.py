"""Positions written as the cells that matter, for tests, the rules pages and the lessons.

A Topiary position names a few cells; every other cell is dealt face down from the tiles
left over, in a fixed order, so a position is the same every time it is built
(``engine.topiary.positions``). A Wizards' Garden position is its rows; the seeds neither
on the board nor harvested are in the basket (``engine.wizards_garden.positions``). The
result is NOTATION.md's position JSON, which ``state_from_json`` then reads and judges:
nothing here knows a rule beyond the shape of a deal.
"""

from engine.topiary.positions import topiary_position
from engine.wizards_garden.positions import wizards_garden_position

__all__ = ["topiary_position", "wizards_garden_position"]
