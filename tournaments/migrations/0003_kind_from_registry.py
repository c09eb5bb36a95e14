"""The kind columns lose ``choices=``: the registry (``engine.games``) judges kinds.

The field's validator and form choices ask the registry at run time, so adding a game
writes no migration any more; this is the last migration of its kind.
"""
import games.models
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_tournament_bots_allowed'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='kind',
            field=games.models.GameKindField(max_length=20),
        ),
    ]
