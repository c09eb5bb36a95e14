"""The Topiary master bot's rating moves with its new search (guided playouts, issue 46):
measured 1683 with strong's random playouts (0003), 1796 since (strong's fit plus master's
128-game match against it, docs/BENCHMARKS.md "Levels"). The same shift as 0003 by the
difference, the figures copied here as measured.
"""

from importlib import import_module

from django.db import migrations

earlier = import_module("ratings.migrations.0003_house_bots_start_at_their_measured_strength")

#: 0003's ``shift`` moves a level by ``measured - 1500``: here by 1796 - 1683.
MOVE = {"topiary": {"master": 1500 + (1796 - 1683)}}


def forwards(apps, schema_editor):
    earlier.shift(apps, +1, MOVE)


def backwards(apps, schema_editor):
    earlier.shift(apps, -1, MOVE)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0004_garden_bots_start_at_their_measured_strength")]

    operations = [migrations.RunPython(forwards, backwards)]
