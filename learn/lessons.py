"""The first lesson of each game, as data: positions in the engine's notation and goals in Python.

A lesson is a short list of positions (``Step``), each asking for one thing. The learner
plays one move (for Topiary, the steps of one turn: place, maybe take, then plant) from
the position; the engine applies it and the step's ``goal`` judges the result. A wrong
try earns the ``hint``, a right one the ``explanation``. ``solution`` is one right answer
(tests/learn/test_lessons.py plays it, and checks that some legal move misses the goal,
so every hint can be earned).

Nothing here restates a rule: goals read the engine's own answers (sight lines, scores,
harvests, the staff, the end of the game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from engine.games import game_definition
from engine.positions import topiary_position, wizards_garden_position


@dataclass(frozen=True)
class Attempt:
    """A learner's move: the position before, the position after and the steps played."""

    before: Any
    after: Any
    steps: tuple[str, ...]

    @property
    def seat(self) -> int:
        return self.before.to_move

    @property
    def placed(self) -> str:
        """Topiary: the position of the visitor the move placed (``c5:S``)."""
        return self.steps[0].split(" ")[0]

    def sight(self, position: str | None = None) -> dict:
        """Topiary: the engine's sight line of the visitor at ``position`` after the move."""
        wanted = position or self.placed
        return next(line for line in self.after.sight_lines() if line["position"] == wanted)

    def seen_tiles(self, position: str | None = None) -> list[str]:
        return [entry["tile"] for entry in self.sight(position)["seen"]]

    def flowers(self, state: Any) -> int:
        return state.score()["scores"][self.seat]["flowers"]


Goal = Callable[[Attempt], bool]


@dataclass(frozen=True)
class Step:
    """One position of a lesson and the one thing it asks for."""

    key: str
    title: str
    task: str
    position: dict
    goal: Goal
    hint: str
    explanation: str
    solution: tuple[str, ...]


@dataclass(frozen=True)
class Lesson:
    """A game's first lesson: its steps in order."""

    game: str
    title: str
    intro: str
    steps: tuple[Step, ...]

    @property
    def slug(self) -> str:
        """The lesson's and the rules page's address part (``wizards-garden``)."""
        return self.game.replace("_", "-")

    @property
    def definition(self):
        return game_definition(self.game)

    def step(self, number: int) -> Step:
        """Step ``number`` (1-based); ``IndexError`` when there is none."""
        if not 1 <= number <= len(self.steps):
            raise IndexError(number)
        return self.steps[number - 1]


# --------------------------------------------------------------------------- Topiary


def _best_spot(attempt: Attempt) -> bool:
    free = [
        line["points"] for line in attempt.before.sight_lines(free=True) if line["seat"] is None
    ]
    return attempt.sight()["points"] == max(free)


def _has_bonus(attempt: Attempt) -> bool:
    sight = attempt.sight()
    return sight["points"] > sum(int(tile[1]) for tile in attempt.seen_tiles())


def _rival_sees_less(attempt: Attempt) -> bool:
    before = next(line for line in attempt.before.sight_lines() if line["position"] == "a3:E")
    return attempt.sight("a3:E")["points"] < before["points"]


_BEST_SPOT = {
    "a5": "S2", "b5": "N3", "c5": "W1", "d5": "R4", "e5": "O5",
    "b4": "P2", "c3": "H4", "d2": "N5", "a1": "H2",
}  # fmt: skip

TOPIARY = Lesson(
    game="topiary",
    title=gettext_lazy("Topiary: your first garden"),
    intro=gettext_lazy(
        "Seven short positions. In each one you are the red player: choose a free spot "
        "around the garden (click its small circle, or on a phone tap the edge tile "
        "beside it, then the direction the visitor looks), then, when the task asks for "
        "it, a face-down tile to take and the tile to plant. The server checks your move "
        "with the same engine the games use."
    ),
    steps=(
        Step(
            key="sight-line",
            title=gettext_lazy("A visitor looks along one line"),
            task=gettext_lazy("Place a visitor that sees three sculptures."),
            position=topiary_position({"a4": "H1", "c4": "O2", "e4": "S4", "c3": "P3", "d2": "W5"}),
            goal=lambda a: len(a.seen_tiles()) >= 3,
            hint=gettext_lazy(
                "A visitor looks straight ahead along its arrow. Face-down tiles are "
                "invisible, so look for a line with three face-up tiles that grow in value "
                "as they get further away."
            ),
            explanation=gettext_lazy(
                "Each tile your visitor sees is worth its value: face-down tiles are skipped, "
                "and every face-up tile it sees is larger than the ones before it."
            ),
            solution=("a4:E",),
        ),
        Step(
            key="hidden-behind",
            title=gettext_lazy("Smaller tiles hide behind larger ones"),
            task=gettext_lazy("Place a visitor that sees the Pom Pom 3 (yellow)."),
            position=topiary_position({"a2": "R4", "c2": "O3", "e2": "H1", "c3": "P5"}),
            goal=lambda a: "O3" in a.seen_tiles(),
            hint=gettext_lazy(
                "After the first face-up tile, a visitor sees a tile only if it is larger than "
                "every tile it has seen so far. Behind the T-Rex 4 or the Pyramid 5 the Pom Pom "
                "3 is hidden: look at it from the other side."
            ),
            explanation=gettext_lazy(
                "From this side the Pom Pom 3 comes before the larger tiles, so it is seen, "
                "and the larger tiles behind it are seen too."
            ),
            solution=("e2:W",),
        ),
        Step(
            key="best-spot",
            title=gettext_lazy("Find the best spot"),
            task=gettext_lazy(
                "Place a visitor that scores as many points as any visitor could here."
            ),
            position=topiary_position(_BEST_SPOT),
            goal=_best_spot,
            hint=gettext_lazy(
                "Choose a circle to see its line and its points before you commit: the number "
                "beside your choice is what the visitor would score. Compare a few lines."
            ),
            explanation=gettext_lazy(
                "No other spot scores more. Long rising lines score best: every step up in "
                "value is another tile seen."
            ),
            solution=("a5:E",),
        ),
        Step(
            key="type-bonus",
            title=gettext_lazy("The type bonus"),
            task=gettext_lazy("Place a visitor that earns a type bonus."),
            position=topiary_position(
                {"a5": "S1", "c5": "S3", "e5": "N2", "a3": "W2", "c3": "R4", "e3": "R5"}
            ),
            goal=_has_bonus,
            hint=gettext_lazy(
                "A visitor that sees two or more tiles of the same type scores one extra point "
                "per tile of that type. Find a line with two Spirals or two T-Rexes the visitor "
                "can both see."
            ),
            explanation=gettext_lazy(
                "Your visitor sees two tiles of one type, so it scores their values plus 2: "
                "the bonus is the number of tiles of that type it sees."
            ),
            solution=("a3:E",),
        ),
        Step(
            key="take-and-plant",
            title=gettext_lazy("Take, look, plant"),
            task=gettext_lazy(
                "Place a visitor, take a face-down tile from its line and plant your Swan 5 "
                "where the visitor sees it."
            ),
            position=topiary_position(
                {"c3": "O2", "a1": "W1"}, hands=[["H1", "N5", "R2"], ["S1", "S2", "S3"]]
            ),
            goal=lambda a: len(a.steps) == 2 and "N5" in a.seen_tiles(),
            hint=gettext_lazy(
                "After choosing a circle, click a face-down tile in that visitor's line to take "
                "it (you see what it is), then click the Swan 5 in your hand to plant it in the "
                "gap. Plant it before any larger tile in the line."
            ),
            explanation=gettext_lazy(
                "A take changes the garden: the tile you took stays in your hand, and the tile "
                "you planted is face up for everyone, your visitors and your rivals' alike."
            ),
            solution=("c5:S c4", "=N5"),
        ),
        Step(
            key="hand-scores",
            title=gettext_lazy("Tiles in your hand"),
            task=gettext_lazy("Place a visitor so that the Pyramid 2 in your hand scores."),
            position=topiary_position(
                {"d4": "P4", "c3": "O1"}, hands=[["P2", "S1", "W1"], ["S2", "S3", "S4"]]
            ),
            goal=lambda a: "P2" in a.after.scoring_hand_tiles()[a.seat],
            hint=gettext_lazy(
                "A tile in your hand scores its value at the end if one of your visitors sees a "
                "larger tile of the same type. There is a Pyramid 4 in the garden: make sure one "
                "of your visitors sees it."
            ),
            explanation=gettext_lazy(
                "Your visitor sees the Pyramid 4, so the Pyramid 2 in your hand scores 2. One "
                "tile in the garden can make several tiles in your hand score."
            ),
            solution=("d5:S",),
        ),
        Step(
            key="block-a-rival",
            title=gettext_lazy("Block a rival's view"),
            task=gettext_lazy(
                "Your rival's blue visitor at a3:E sees 9 points. Take a tile from its line and "
                "plant one that makes it see less."
            ),
            position=topiary_position(
                {"b3": "N1", "c3": "O3", "e3": "W5"},
                visitors={"a3:E": 1},
                hands=[["H1", "R2", "S5"], ["S1", "S2", "S3"]],
            ),
            goal=_rival_sees_less,
            hint=gettext_lazy(
                "A large tile early in a line hides every smaller or equal tile behind it. Take "
                "the face-down tile right in front of the blue visitor (a3) and plant your "
                "largest tile there."
            ),
            explanation=gettext_lazy(
                "The blue visitor now sees the large tile first and nothing smaller behind it. "
                "Every take is a chance to help your visitors or to spoil a rival's."
            ),
            solution=("a1:N a3", "=S5"),
        ),
    ),
)

# --------------------------------------------------------------------------- Wizards' Garden


def _harvests(attempt: Attempt) -> int:
    return attempt.flowers(attempt.after) - attempt.flowers(attempt.before)


def _leaves_no_harvest(attempt: Attempt) -> bool:
    after = attempt.after
    if _harvests(attempt) == 0 or after.is_over:
        return False
    return all(after.apply(move).harvested == after.harvested for move in after.legal_moves())


def _wins_now(attempt: Attempt) -> bool:
    return attempt.after.is_over and attempt.after.score()["winners"] == [attempt.seat]


WIZARDS_GARDEN = Lesson(
    game="wizards_garden",
    title=gettext_lazy("Wizards' Garden: flips and harvests"),
    intro=gettext_lazy(
        "Six short positions. In each one you play the next seed: choose a bed next to a "
        "seed, then the side to show, white (Dovetail) or black (Ravenclaw). The server "
        "checks your move with the same engine the games use."
    ),
    steps=(
        Step(
            key="flips",
            title=gettext_lazy("Planting flips the neighbours"),
            task=gettext_lazy("Plant a seed so that the white seed on b2 turns black."),
            position=wizards_garden_position("....", ".WB.", ".WB.", "...."),
            goal=lambda a: a.after.cell("b2") == "B",
            hint=gettext_lazy(
                "A new seed flips every seed right beside it (left, right, above, below), not "
                "the diagonal ones. Plant on an empty bed touching b2."
            ),
            explanation=gettext_lazy(
                "Every seed orthogonally next to the new seed turned over. The side you plant "
                "face up is yours to choose; the flips follow."
            ),
            solution=("a2W",),
        ),
        Step(
            key="harvest",
            title=gettext_lazy("Harvest a line"),
            task=gettext_lazy("Make a line of four seeds of one colour and harvest it."),
            position=wizards_garden_position("B...", ".W..", "....", "WWB."),
            goal=lambda a: _harvests(a) >= 1,
            hint=gettext_lazy(
                "A full row, column or long diagonal of one colour is harvested. Remember the "
                "flip: planting on d1 turns the black seed on c1 white."
            ),
            explanation=gettext_lazy(
                "The four seeds left the board: you keep one as a flower and three go back to "
                "the basket. Most flowers at the end wins."
            ),
            solution=("d1W",),
        ),
        Step(
            key="two-lines",
            title=gettext_lazy("Two lines at once"),
            task=gettext_lazy("Harvest two lines with one seed."),
            position=wizards_garden_position("W...", "....", "BBW.", "WWWB"),
            goal=lambda a: _harvests(a) == 2,
            hint=gettext_lazy(
                "One seed can complete its own line and, by flipping a neighbour, another line "
                "too. Look at rows 1 and 2 and the bed where they end."
            ),
            explanation=gettext_lazy(
                "Lines that share no seed are all harvested: two flowers at once. One was "
                "black, so you took the Wizard's Staff too."
            ),
            solution=("d2B",),
        ),
        Step(
            key="choose-one",
            title=gettext_lazy("Overlapping lines: choose one"),
            task=gettext_lazy(
                "A seed on c3 completes a row and a column that share it. Harvest the one that "
                "leaves your opponent no harvest on their next move."
            ),
            position=wizards_garden_position("..BB", "WB.B", "..B.", "..WW"),
            goal=_leaves_no_harvest,
            hint=gettext_lazy(
                "Lines that share a seed cannot both be harvested: you choose one, and the other "
                "line's three remaining seeds stay. Look at what your opponent could complete "
                "with them."
            ),
            explanation=gettext_lazy(
                "Choosing which line to harvest decides what stays on the board. In the move "
                "list the choice is written after a slash: c3W/a3-d3."
            ),
            solution=("c3W/a3-d3",),
        ),
        Step(
            key="staff",
            title=gettext_lazy("The Wizard's Staff"),
            task=gettext_lazy(
                "Your opponent holds the Wizard's Staff. Harvest a line that takes it from them."
            ),
            position=wizards_garden_position(
                "WWB.", "....", ".W..", "BBW.", harvested=((1, 0), (0, 1)), staff=1
            ),
            goal=lambda a: a.after.staff == a.seat,
            hint=gettext_lazy(
                "Only a black (Ravenclaw) line moves the staff: whoever harvests one takes it. "
                "A white line scores a flower but leaves the staff where it is."
            ),
            explanation=gettext_lazy(
                "You hold the staff now. If the flowers are level at the end, the staff's holder "
                "wins."
            ),
            solution=("d1B",),
        ),
        Step(
            key="game-end",
            title=gettext_lazy("Ending the game"),
            task=gettext_lazy(
                "One bed is empty and you lead 2 flowers to 1. Fill it so that the game ends "
                "now, with you the winner."
            ),
            position=wizards_garden_position(
                "BWBW", "WBWB", "BWBW", "BW.W", harvested=((2, 0), (1, 0))
            ),
            goal=_wins_now,
            hint=gettext_lazy(
                "A full line must be harvested, and a harvest puts three seeds back in the "
                "basket and empties beds, so the game goes on. Choose the side that completes "
                "no line."
            ),
            explanation=gettext_lazy(
                "The board is full, so your opponent cannot plant: the game is over and the "
                "most flowers win. It also ends when the basket or the board is empty."
            ),
            solution=("c1W",),
        ),
    ),
)

#: Every lesson by its game's name.
LESSONS: dict[str, Lesson] = {lesson.game: lesson for lesson in (TOPIARY, WIZARDS_GARDEN)}


def lesson_for_slug(slug: str) -> Lesson | None:
    """The lesson whose address part is ``slug`` (``topiary``, ``wizards-garden``)."""
    return next((lesson for lesson in LESSONS.values() if lesson.slug == slug), None)
