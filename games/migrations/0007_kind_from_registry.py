"""The kind columns lose ``choices=``: the registry (``engine.games``) judges kinds.

The field's validator and form choices ask the registry at run time, so adding a game
writes no migration any more; this is the last migration of its kind.
"""
import games.models
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_game_version'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='kind',
            field=games.models.GameKindField(max_length=20),
        ),
        migrations.AlterField(
            model_name='seek',
            name='kind',
            field=games.models.GameKindField(max_length=20),
        ),
    ]
