"""The ``Moderators`` group (R-9) with only what handling reports needs:
read reports and the match record, record moderator actions, void matches.
Not superuser; a moderator also needs "staff status" to open the admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = [
    ("friends", "view_report"),
    ("friends", "view_moderatoraction"),
    ("friends", "add_moderatoraction"),
    ("leaderboard", "view_ledgerentry"),
    ("leaderboard", "view_matchvoid"),
    ("leaderboard", "add_matchvoid"),
    ("games", "view_match"),
]


def create_group(apps, schema_editor):
    # Permissions are normally made after migrate; make them now so the group can hold them.
    for label in {app for app, _ in PERMISSIONS}:
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Moderators")
    for app, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("friends", "0001_initial"),
        ("leaderboard", "0001_initial"),
        ("games", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
