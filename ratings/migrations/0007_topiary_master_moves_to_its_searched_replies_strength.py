"""The Topiary master bot's rating moves with its searched replies (before each playout the
next seat's answer is chosen by a bandit of its own, issue 46): measured 1853 before (0006),
1951 since (strong's fit plus master's 192 fresh 2-player games against strong at 21,000
iterations, docs/BENCHMARKS.md "Levels"). The same shift as 0003 by the difference, the
figures copied here as measured.
"""

from importlib import import_module

from django.db import migrations

earlier = import_module("ratings.migrations.0003_house_bots_start_at_their_measured_strength")

#: 0003's ``shift`` moves a level by ``measured - 1500``: here by 1951 - 1853.
MOVE = {"topiary": {"master": 1500 + (1951 - 1853)}}


def forwards(apps, schema_editor):
    earlier.shift(apps, +1, MOVE)


def backwards(apps, schema_editor):
    earlier.shift(apps, -1, MOVE)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0006_topiary_master_moves_to_its_wider_playouts_strength")]

    operations = [migrations.RunPython(forwards, backwards)]
