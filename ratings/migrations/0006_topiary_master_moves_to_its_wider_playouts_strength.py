"""The Topiary master bot's rating moves with its new playouts (a guided move weighs its take
by the mover's hand and by every occupied line through the taken cell, issue 46): measured
1796 before (0005), 1853 since (strong's fit plus master's 128-game match against strong at
21,000 iterations, docs/BENCHMARKS.md "Levels"). The same shift as 0003 by the difference,
the figures copied here as measured.
"""

from importlib import import_module

from django.db import migrations

earlier = import_module("ratings.migrations.0003_house_bots_start_at_their_measured_strength")

#: 0003's ``shift`` moves a level by ``measured - 1500``: here by 1853 - 1796.
MOVE = {"topiary": {"master": 1500 + (1853 - 1796)}}


def forwards(apps, schema_editor):
    earlier.shift(apps, +1, MOVE)


def backwards(apps, schema_editor):
    earlier.shift(apps, -1, MOVE)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0005_topiary_master_moves_to_its_guided_search_strength")]

    operations = [migrations.RunPython(forwards, backwards)]
