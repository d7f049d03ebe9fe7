from django.core.management.base import BaseCommand

from notify import vapid


class Command(BaseCommand):
    help = (
        "Generate the embedded site's VAPID keys once (kept in DATA_DIR, like the local secret key); "
        "--print shows a new pair for the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--print", action="store_true", help="print a new pair; write nothing")

    def handle(self, *args, **options):
        if options["print"]:
            public, private = vapid.generate()
            self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
            return
        path, created = vapid.write_local()
        if created:
            self.stdout.write(f"VAPID keys written to {path}")
        else:
            self.stdout.write(f"VAPID keys kept: {path} exists")
