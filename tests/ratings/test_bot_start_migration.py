"""Ratings 0004: the house bots' Wizards' Garden ratings move to their level's measured
strength as if they had started there (as 0003 did for Topiary); their Topiary ratings and
everyone else's stay, and going back undoes it. Ratings 0005, 0006 and 0007: the Topiary
master moves by its new search's measured strength, nothing else does."""

from importlib import import_module

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.models import Rating
from tests.ratings.played import make_user

pytestmark = pytest.mark.django_db

BEFORE = ("ratings", "0003_house_bots_start_at_their_measured_strength")
GARDEN = ("ratings", "0004_garden_bots_start_at_their_measured_strength")
GUIDED = ("ratings", "0005_topiary_master_moves_to_its_guided_search_strength")
WIDER = ("ratings", "0006_topiary_master_moves_to_its_wider_playouts_strength")
MEASURED = import_module(
    "ratings.migrations.0004_garden_bots_start_at_their_measured_strength"
).MEASURED["wizards_garden"]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


def values() -> dict:
    return {(r.user.username, r.kind): r.value for r in Rating.objects.select_related("user")}


def test_garden_bots_ratings_move_by_their_measured_strength_and_back():
    migrate([BEFORE])  # a data migration: the schema is today's
    person = make_user("gardener")
    bots = {level: make_user(f"plays{level}", bot_level=level) for level in MEASURED}
    for user in (person, *bots.values()):
        Rating.objects.create(user=user, kind="wizards_garden", value=1530, games=4)
        Rating.objects.create(user=user, kind="topiary", value=1600, games=9)
    before = values()

    migrate([GARDEN])
    after = values()
    assert after[person.username, "wizards_garden"] == 1530
    for level, bot in bots.items():
        assert after[bot.username, "wizards_garden"] == 1530 + MEASURED[level] - 1500
        assert after[bot.username, "topiary"] == 1600
    assert after["playsstrong", "wizards_garden"] > after["playsgreedy", "wizards_garden"] == 1530
    assert after["playsrandom", "wizards_garden"] < 1530

    migrate([BEFORE])
    assert values() == before
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_the_topiary_master_moves_to_its_guided_search_strength_and_back():
    migrate([GARDEN])
    bots = {level: make_user(f"topiary{level}", bot_level=level) for level in MEASURED}
    for bot in bots.values():
        Rating.objects.create(user=bot, kind="topiary", value=1700, games=3)
        Rating.objects.create(user=bot, kind="wizards_garden", value=1700, games=3)
    before = values()
    others = {key: value for key, value in before.items() if key != ("topiarymaster", "topiary")}
    migrate([GUIDED])
    after = values()
    # Measured 1683 with random playouts, 1796 with guided ones: master alone moves.
    assert after["topiarymaster", "topiary"] == 1700 + 1796 - 1683
    assert {key: value for key, value in after.items() if key in others} == others
    migrate([WIDER])
    after = values()
    # 1853 once its playouts weighed the hand and every line through the taken cell.
    assert after["topiarymaster", "topiary"] == 1700 + 1853 - 1683
    assert {key: value for key, value in after.items() if key in others} == others
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    after = values()
    # 1951 since it searches the next seat's answer before each playout.
    assert after["topiarymaster", "topiary"] == 1700 + 1951 - 1683
    assert {key: value for key, value in after.items() if key in others} == others
    migrate([WIDER])
    assert values()["topiarymaster", "topiary"] == 1700 + 1853 - 1683
    migrate([GUIDED])
    assert values()["topiarymaster", "topiary"] == 1700 + 1796 - 1683
    migrate([GARDEN])
    assert values() == before
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
