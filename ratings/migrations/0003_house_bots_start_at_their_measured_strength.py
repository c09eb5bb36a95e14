"""The house bots' game ratings start from their level's measured strength, not 1500
(issue 46; engine.topiary.bots.MEASURED_RATINGS, bench/levels.py).

A bot that has already played keeps its history: its rating moves by the difference, as
if it had started there. The table is copied here as it was measured, so this migration
means the same whatever later measurements say (new bots take the engine's current table).
"""

from django.db import migrations

#: kind -> level -> measured Elo (greedy anchored at 1500), when this migration was written.
MEASURED = {"topiary": {"random": 989, "greedy": 1500, "strong": 1690, "master": 1683}}


def shift(apps, sign: int, measured_by_kind=MEASURED) -> None:
    """Move the house bots' ratings of each kind by their level's ``measured - 1500``
    (``sign`` -1: back); ratings 0004 reuses it for Wizards' Garden."""
    Rating = apps.get_model("ratings", "Rating")
    for kind, levels in measured_by_kind.items():
        for level, measured in levels.items():
            for rating in Rating.objects.filter(
                kind=kind, user__is_bot=True, user__bot_level=level
            ):
                rating.value += sign * (measured - 1500)
                rating.save(update_fields=["value"])


def forwards(apps, schema_editor):
    shift(apps, +1)


def backwards(apps, schema_editor):
    shift(apps, -1)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_alter_user_bot_level"),
        ("ratings", "0002_kind_from_registry"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
