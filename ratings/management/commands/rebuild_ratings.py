"""M-2: compute every rating again from the match history (the live updates give the same numbers)."""

from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = "Rebuild every rating from the ended matches (or, with --pending, rate the ones never rated)."

    def add_arguments(self, parser):
        parser.add_argument("--pending", action="store_true", help="Only rate ended matches not rated yet.")

    def handle(self, *args, **options):
        if options["pending"]:
            count = services.rate_pending()
            self.stdout.write(f"rated {count} pending matches")
            return
        state = services.rebuild()
        self.stdout.write(f"rebuilt {len(state)} ratings")
