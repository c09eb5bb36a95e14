"""Every name gets its look-alike key (accounts.validators.username_skeleton), unique.

Names registered before the check may already look alike ("StrongBot" and a person's
"StrongB0t"): the oldest account keeps the key, the younger ones keep their names with
none (NULL), and no new name like theirs can be registered.
"""

from django.db import migrations, models


def skeletons_fill(apps, schema_editor):
    from accounts.validators import username_skeleton

    User = apps.get_model("accounts", "User")
    taken = set()
    changed = []
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        key = username_skeleton(user.username)
        if key in taken:
            continue
        taken.add(key)
        user.username_skeleton = key
        changed.append(user)
    User.objects.bulk_update(changed, ["username_skeleton"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_email_change_pending"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=255, null=True),
        ),
        migrations.RunPython(skeletons_fill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=255, null=True, unique=True),
        ),
    ]
