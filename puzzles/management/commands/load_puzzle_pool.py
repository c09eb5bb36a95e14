"""Load the committed training-puzzle pool (puzzles/data/*.jsonl.gz) into the database."""

import gzip
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from puzzles import services

#: The committed pool: self-play puzzles made by ``mine_puzzles`` (docs/PUZZLES_SEED.md, 10).
POOL_DIR = Path(__file__).resolve().parents[2] / "data"


def pool_lines(path: Path):
    """The JSON objects of a pool file, one a line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


class Command(BaseCommand):
    help = (
        "Add the puzzles of the committed pool files (or the files given) to the training "
        "pool. Puzzles already stored are skipped, so it is safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="*", help="Pool files (default: puzzles/data/).")

    def handle(self, *args, files, **options):
        paths = [Path(f) for f in files] or sorted(POOL_DIR.glob("*.jsonl.gz"))
        if not paths:
            raise CommandError(f"no pool files in {POOL_DIR}")
        for path in paths:
            if not path.is_file():
                raise CommandError(f"no such file: {path}")
            added = services.training_puzzles_load(pool_lines(path))
            self.stdout.write(f"{path.name}: {added} puzzles added")
