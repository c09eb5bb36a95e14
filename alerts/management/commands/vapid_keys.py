"""Print a new Web Push (VAPID) key pair as the settings take it (README.md)."""

from django.core.management.base import BaseCommand

from alerts.vapid import pair_make


class Command(BaseCommand):
    help = "Print a new VAPID key pair as TOPIARY_VAPID_PRIVATE_KEY and _PUBLIC_KEY lines."

    def handle(self, *args, **options):
        pair = pair_make()
        self.stdout.write(f"TOPIARY_VAPID_PRIVATE_KEY={pair['private']}")
        self.stdout.write(f"TOPIARY_VAPID_PUBLIC_KEY={pair['public']}")
