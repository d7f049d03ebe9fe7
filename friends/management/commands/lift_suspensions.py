from django.core.management.base import BaseCommand

from friends.moderation import lift_expired


class Command(BaseCommand):
    help = "Reactivate players whose timed deactivation by a moderator has ended."

    def handle(self, *args, **options):
        self.stdout.write(f"{lift_expired()} reactivated")
