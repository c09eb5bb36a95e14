#!/bin/sh
# One dump of the database at $DATABASE_URL into $BACKUP_DIR, keeping the newest
# $BACKUP_KEEP dumps (default 14). PostgreSQL's custom format: compressed, restored
# with deploy/restore.sh. Prints the dump's path.
set -eu
dir="${BACKUP_DIR:?set BACKUP_DIR}"
keep="${BACKUP_KEEP:-14}"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
partial="$dir/.topiary-$stamp.dump.partial"
mkdir -p "$dir"
# Written aside and renamed: a dump cut short never looks like a backup.
pg_dump --format=custom --no-owner --no-privileges --dbname="${DATABASE_URL:?set DATABASE_URL}" --file="$partial"
mv "$partial" "$dir/topiary-$stamp.dump"
# The names sort by time: drop all but the newest $keep.
ls -1 "$dir"/topiary-*.dump | sort -r | tail -n "+$((keep + 1))" | while read -r old; do
    rm -f -- "$old"
done
echo "$dir/topiary-$stamp.dump"
