"""The kind columns lose ``choices=``: the registry (``engine.games``) judges kinds.

The field's validator and form choices ask the registry at run time, so adding a game
writes no migration any more; this is the last migration of its kind.
"""
import ratings.models
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.AlterField(
            model_name='rating',
            name='kind',
            field=ratings.models.RatingKindField(max_length=20),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='kind',
            field=ratings.models.RatingKindField(max_length=20),
        ),
    ]
