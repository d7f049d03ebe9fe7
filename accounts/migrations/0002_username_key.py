"""Usernames are unique by their key: NFKC, case-folded, look-alikes folded
(issue 14, item 9). Existing users get their key; a later account whose key
is already taken gets a key of its own (``key#id``) so that the migration
never fails on old data, and an operator can rename it."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.validators import username_key

    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        key = username_key(user.username)
        if key in seen:
            key = f"{key}#{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(username_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False,
                help_text="The username as names are compared: look-alikes share one key.",
                max_length=64,
                unique=True,
                verbose_name="username key",
            ),
        ),
    ]
