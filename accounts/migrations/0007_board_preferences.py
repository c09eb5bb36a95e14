from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_username_skeleton"),
    ]

    operations = [
        migrations.AddField(
            model_name="preferences",
            name="coordinates",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="preferences",
            name="animation",
            field=models.CharField(
                choices=[
                    ("none", "None"),
                    ("fast", "Fast"),
                    ("normal", "Normal"),
                    ("slow", "Slow"),
                ],
                default="normal",
                max_length=8,
            ),
        ),
    ]
