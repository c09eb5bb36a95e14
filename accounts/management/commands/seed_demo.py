"""Create the house bots and a few demo players, as many times as you like."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts import services
from accounts.models import User

DEMO_PASSWORD = "topiary-demo"
DEMO_PLAYERS = [
    ("alice", "alice@example.com"),
    ("bob", "bob@example.com"),
    ("carol", "carol@example.com"),
]


class Command(BaseCommand):
    help = (
        "Create the bot accounts (RandomBot, GreedyBot, StrongBot) and the demo players "
        f"alice, bob and carol (password {DEMO_PASSWORD!r}). Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--bots-only", action="store_true", help="Create only the bot accounts."
        )
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Create the demo players even with DEBUG off (their password is public).",
        )

    def handle(self, *args, bots_only: bool, allow_production: bool, **options):
        demo_players = not bots_only
        if demo_players and not settings.DEBUG and not allow_production:
            raise CommandError(
                "DEBUG is off: demo players have a published password. "
                "Use --bots-only for just the bots, or --allow-production if you mean it."
            )
        for level in User.BotLevel:
            bot = services.bot_ensure(level=level)
            self.stdout.write(f"bot    {bot.username:<10} ({level.label} level, cannot log in)")
        if not demo_players:
            return
        for username, email in DEMO_PLAYERS:
            if User.objects.filter(username__iexact=username).exists():
                self.stdout.write(f"player {username:<10} exists, password left as it is")
            else:
                services.user_register(username=username, email=email, password=DEMO_PASSWORD)
                self.stdout.write(f"player {username:<10} password: {DEMO_PASSWORD}")
