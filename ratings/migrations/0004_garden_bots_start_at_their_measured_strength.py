"""The house bots' Wizards' Garden ratings start from their level's measured strength, as
their Topiary ratings do since 0003 (issue 46; engine.wizards_garden.bots.MEASURED_RATINGS,
bench/levels.py --game wizards-garden).

The same shift as 0003 (a bot that has played keeps its history, moved by the
difference); the table is copied here as measured, so this migration means the same
whatever later measurements say.
"""

from importlib import import_module

from django.db import migrations

earlier = import_module("ratings.migrations.0003_house_bots_start_at_their_measured_strength")

#: kind -> level -> measured Elo (greedy anchored at 1500), when this migration was written.
MEASURED = {"wizards_garden": {"random": 1083, "greedy": 1500, "strong": 2114, "master": 2198}}


def forwards(apps, schema_editor):
    earlier.shift(apps, +1, MEASURED)


def backwards(apps, schema_editor):
    earlier.shift(apps, -1, MEASURED)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0003_house_bots_start_at_their_measured_strength")]

    operations = [migrations.RunPython(forwards, backwards)]
