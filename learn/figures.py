"""The pictures of the rules pages, as positions the engine reads and judges.

Each ``Figure`` is a position (NOTATION.md's JSON) and, optionally, a move played from it;
the page draws the position (and the one after the move) with the site's board modules from
what ``learn.selectors.figure_payload`` builds with the engine. A caption's numbers are the
engine's (``facts``), and ``claims`` are what the rulebook says they must be:
tests/learn/test_rules_pages.py holds the two equal, so a picture cannot drift from the rules.
Captions are marked for translation (``gettext_lazy``) and name the facts they quote as
``%(seen)s`` placeholders, so a translation keeps the engine's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext

from engine.games import game_definition
from engine.positions import topiary_position, wizards_garden_position


@dataclass(frozen=True)
class Figure:
    """One picture: a position, maybe a move from it, and what to point at.

    ``focus``: the visitor whose sight line is highlighted (Topiary). ``hand``: show the seat
    to move's hand under the board, with the tiles that score marked. ``targets``: draw the
    free visitor positions. ``seat``: the player the caption speaks of. ``tiles``: a row of
    tiles instead of a board (a draft keep, the removed type). ``caption`` may name any of
    ``facts`` and the game's rule options (their lobby labels, by option name) as
    ``%(name)s``.
    """

    key: str
    game: str
    caption: str
    position: dict | None = None
    move: str | None = None
    focus: str | None = None
    hand: bool = False
    targets: bool = False
    tiles: tuple[str, ...] = ()
    seat: int = 0
    claims: dict = field(default_factory=dict)

    @property
    def definition(self):
        return game_definition(self.game)

    @property
    def module(self):
        return self.definition.module

    def states(self) -> tuple[Any, Any | None]:
        """The position and the position after the figure's move (None without a move)."""
        before = self.module.state_from_json(self.position)
        after = None
        if self.move:
            after = before
            for step in _steps(self.move):
                after = after.apply(step)
        return before, after

    def facts(self) -> dict:
        """The numbers the caption may quote, as the engine gives them for the shown position."""
        if self.position is None:
            return {}
        before, after = self.states()
        shown = after or before
        seat = self.seat
        facts: dict[str, Any] = {}
        score = shown.score()
        entry = score["scores"][seat]
        facts.update({key: value for key, value in entry.items() if key != "seat"})
        if self.definition.sight_lines:
            lines = {line["position"]: line for line in shown.sight_lines()}
            if self.focus in lines:
                line = lines[self.focus]
                facts["points"] = line["points"]
                facts["seen"] = " ".join(item["tile"] for item in line["seen"])
            facts["scoring_hand"] = " ".join(shown.scoring_hand_tiles()[seat]) or "none"
        else:
            facts["end"] = shown.end_reason() if shown.is_over else None
            facts["basket"] = shown.basket
            facts["staff"] = shown.staff
        return facts

    def text(self) -> str:
        """The caption in the active language, with the engine's numbers filled in."""
        facts = self.facts()
        if facts.get("end"):
            facts["end"] = gettext(facts["end"])
        if facts.get("scoring_hand") == "none":
            facts["scoring_hand"] = pgettext("no hand tile scores", "none")
        labels = {option.name: gettext(option.label) for option in self.definition.rule_options}
        return str(self.caption) % {**labels, **facts}


def _steps(move: str) -> list[str]:
    """A Topiary whole move played as the table plays it: the take step, then the plant."""
    if "=" in move and not move.startswith("="):
        take, plant = move.split("=")
        return [take, f"={plant}"]
    return [move]


# --------------------------------------------------------------------------- Topiary

_EXAMPLE_D = {
    "a1": "E4", "b1": "H5",
    "a2": "N3", "b2": "O4", "c2": "P5",
    "a3": "s1", "b3": "s2", "c3": "R4", "d3": "s3", "e3": "S5",
    "a4": "W5",
    "a5": "E5",
}  # fmt: skip
_TURN = topiary_position(
    {"c5": "W1", "c4": "n2", "c3": "R4"}, hands=[["P5", "R1", "W2"], ["S1", "S2", "S3"]]
)

TOPIARY_FIGURES = (
    Figure(
        key="garden",
        game="topiary",
        caption=gettext_lazy(
            "A garden at the start: 25 tiles face down, the centre one face up. Each small circle "
            "is a place where a visitor can stand, looking along its arrow."
        ),
        position=topiary_position({"c3": "O3"}),
        targets=True,
    ),
    Figure(
        key="example-a",
        game="topiary",
        caption=gettext_lazy(
            "Example A. The visitor sees the Polyhedron 3, skips the face-down tile, sees the "
            "Pom Pom 4, cannot see the Polyhedron 4 (not larger than 4) and sees the Spiral 5: "
            "%(seen)s, %(visitors)s points, no bonus."
        ),
        position=topiary_position(
            {"a1": "H3", "b1": "e1", "c1": "O4", "d1": "H4", "e1": "S5"},
            visitors={"a1:E": 0},
            removed_type="R",
        ),
        focus="a1:E",
        claims={"visitors": 12, "bonus": 0, "seen": "H3 O4 S5"},
    ),
    Figure(
        key="example-b",
        game="topiary",
        caption=gettext_lazy(
            "Example B. The visitor sees %(seen)s: %(visitors)s points, plus a bonus of "
            "%(bonus)s for three T-Rexes. The Swan 5 hides behind the T-Rex 5, so there is no "
            "Swan bonus: %(points)s in all."
        ),
        position=topiary_position(
            {"a1": "R2", "b1": "R3", "c1": "N4", "d1": "R5", "e1": "N5"}, visitors={"a1:E": 0}
        ),
        focus="a1:E",
        claims={"visitors": 14, "bonus": 3, "points": 17, "seen": "R2 R3 N4 R5"},
    ),
    Figure(
        key="example-c",
        game="topiary",
        caption=gettext_lazy(
            "Example C. The hand holds T-Rex 1, Whale 2 and Pyramid 5. The visitor sees a T-Rex "
            "3 and a Whale 4, so the T-Rex 1 and the Whale 2 score: %(hand)s points from the hand "
            "(%(scoring_hand)s). The Pyramid 5 can never score: no Pyramid is larger."
        ),
        position=topiary_position(
            {"a2": "R3", "b2": "W4", "c2": "P4"},
            visitors={"a2:E": 0},
            hands=[["P5", "R1", "W2"], ["S1", "S2", "S3"]],
        ),
        focus="a2:E",
        hand=True,
        claims={"hand": 3, "scoring_hand": "R1 W2"},
    ),
    Figure(
        key="example-d",
        game="topiary",
        caption=gettext_lazy(
            "Example D. Five visitors of one player score 9 + 12 + 9 + 5 + 5 = %(visitors)s; the "
            "hand adds %(hand)s (the Elephant 3 below the Elephant 5 seen on row 5): %(total)s in "
            "all."
        ),
        position=topiary_position(
            _EXAMPLE_D,
            players=4,
            visitors={"a1:E": 0, "a2:E": 0, "a3:E": 0, "a4:E": 0, "a5:E": 0},
            hands=[["E3", "N5", "R5"], ["O1", "O2", "O3"], ["H1", "H2", "H3"], ["W1", "W2", "W3"]],
            to_move=1,
        ),
        hand=True,
        claims={"visitors": 40, "bonus": 0, "hand": 3, "total": 43},
    ),
    Figure(
        key="turn",
        game="topiary",
        caption=gettext_lazy(
            "A turn: place a visitor at c5:S, take the face-down tile at c4 (only you see it: a "
            "Swan 2) and plant the Pyramid 5 from your hand there. The visitor now sees %(seen)s "
            "(%(points)s points): the Pyramid 5 hides the T-Rex 4. Written c5:S c4=P5."
        ),
        position=_TURN,
        move="c5:S c4=P5",
        focus="c5:S",
        hand=True,
        claims={"points": 6, "seen": "W1 P5"},
    ),
    Figure(
        key="removed-type",
        game="topiary",
        caption=gettext_lazy(
            "With 2 or 3 players, all five tiles of one type are out of the game (here the "
            "Elephants). Everyone knows which."
        ),
        tiles=("E1", "E2", "E3", "E4", "E5"),
    ),
    Figure(
        key="draft",
        game="topiary",
        caption=gettext_lazy(
            "keep R3 N4 W1: a draft move keeping these three tiles from those passed."
        ),
        tiles=("R3", "N4", "W1"),
    ),
    # How the move list writes a move (NOTATION.md).
    Figure(
        key="notation-place",
        game="topiary",
        caption=gettext_lazy(
            "c5:S: a visitor above c5, looking south (down) along column c. It sees %(seen)s."
        ),
        position=topiary_position({"c5": "W1", "c3": "R4"}, visitors={"c5:S": 0}),
        focus="c5:S",
    ),
    Figure(
        key="notation-diagonal",
        game="topiary",
        caption=gettext_lazy(
            "a1:NE: a visitor off the corner of a1, looking north-east along the long "
            "diagonal to e5. It sees %(seen)s."
        ),
        position=topiary_position({"a1": "S1", "c3": "R4", "e5": "O5"}, visitors={"a1:NE": 0}),
        focus="a1:NE",
    ),
    Figure(
        key="notation-corner",
        game="topiary",
        caption=gettext_lazy(
            "a1:SE: a corner visitor that sees a1 only (the rule option %(corner_diagonals)s)."
        ),
        position=topiary_position({"a1": "N4"}, visitors={"a1:SE": 0}),
        focus="a1:SE",
    ),
    Figure(
        key="notation-take",
        game="topiary",
        caption=gettext_lazy(
            "c5:S c4=P5: place at c5:S, take the tile at c4, plant the Pyramid 5 there. "
            "c5:S c4=* would plant the tile just taken."
        ),
        position=_TURN,
        move="c5:S c4=P5",
        focus="c5:S",
    ),
)

# --------------------------------------------------------------------------- Wizards' Garden

_OVERLAP = wizards_garden_position("..BB", "WB.B", "..B.", "..WW")
_PLANTING = wizards_garden_position("....", ".W..", "W.B.", "...B")

WIZARDS_GARDEN_FIGURES = (
    Figure(
        key="setup",
        game="wizards_garden",
        caption=gettext_lazy(
            "After the setup: each player has placed two seeds anywhere, either side up. "
            "%(basket)s seeds are left in the basket."
        ),
        position=wizards_garden_position(".W.B", "....", "..B.", "W...", basket=16),
    ),
    Figure(
        key="planting",
        game="wizards_garden",
        caption=gettext_lazy(
            "b2B: a black seed planted on b2 flips its neighbours on a2, b3 and c2. The seed "
            "on d1 is not next to it and stays."
        ),
        position=_PLANTING,
        move="b2B",
    ),
    Figure(
        key="harvest",
        game="wizards_garden",
        caption=gettext_lazy(
            "d1W completes row 1 in white (the black seed on c1 flips). The four seeds leave: "
            "one is kept as a flower, three go back to the basket (%(basket)s now)."
        ),
        position=wizards_garden_position("B...", ".W..", "....", "WWB."),
        move="d1W",
        claims={"flowers": 1, "W": 1},
    ),
    Figure(
        key="overlap-row",
        game="wizards_garden",
        caption=gettext_lazy(
            "c3W completes row 3 and column c, which share c3: only one may be harvested. "
            "Here the row: c3W/a3-d3."
        ),
        position=_OVERLAP,
        move="c3W/a3-d3",
        claims={"flowers": 1},
    ),
    Figure(
        key="overlap-column",
        game="wizards_garden",
        caption=gettext_lazy("The same seed, harvesting the column instead: c3W/c1-c4."),
        position=_OVERLAP,
        move="c3W/c1-c4",
        claims={"flowers": 1},
    ),
    Figure(
        key="staff",
        game="wizards_garden",
        caption=gettext_lazy(
            "d1B completes a black (Ravenclaw) row: its harvester takes the Wizard's Staff, "
            "here from the other player."
        ),
        position=wizards_garden_position(
            "WWB.", "....", ".W..", "BBW.", harvested=((1, 0), (0, 1)), staff=1
        ),
        move="d1B",
        claims={"staff": 0, "B": 1},
    ),
    Figure(
        key="end-basket",
        game="wizards_garden",
        caption=gettext_lazy(
            "a2W plants the last seed from the basket and harvests nothing: %(end)s. Game over."
        ),
        position=wizards_garden_position(
            "WBWW", "WB.W", ".WWW", "WWBB", harvested=((2, 1), (2, 0)), staff=0
        ),
        move="a2W",
        claims={"end": "the basket is empty"},
    ),
    Figure(
        key="end-empty",
        game="wizards_garden",
        caption=gettext_lazy(
            "d2B harvests rows 1 and 2 together, the last seeds on the board: %(end)s."
        ),
        position=wizards_garden_position("....", "....", "BBW.", "WWWB"),
        move="d2B",
        claims={"end": "the board is empty"},
    ),
    Figure(
        key="end-full",
        game="wizards_garden",
        caption=gettext_lazy("c1W fills the last bed without completing a line: %(end)s."),
        position=wizards_garden_position(
            "BWBW", "WBWB", "BWBW", "BW.W", harvested=((2, 0), (1, 0))
        ),
        move="c1W",
        claims={"end": "the board is full"},
    ),
    # How the move list writes a move (NOTATION.md).
    Figure(
        key="notation-plant",
        game="wizards_garden",
        caption=gettext_lazy("b2B: a seed planted black side up on b2."),
        position=_PLANTING,
        move="b2B",
    ),
    Figure(
        key="notation-harvest",
        game="wizards_garden",
        caption=gettext_lazy(
            "c3W/c1-c4: a white seed on c3, harvesting column c of the two lines it completes."
        ),
        position=_OVERLAP,
        move="c3W/c1-c4",
    ),
)

#: Every game's figures, by game name, in the order the page shows them.
FIGURES: dict[str, tuple[Figure, ...]] = {
    "topiary": TOPIARY_FIGURES,
    "wizards_garden": WIZARDS_GARDEN_FIGURES,
}
