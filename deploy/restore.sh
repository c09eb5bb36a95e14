#!/bin/sh
# Restore a dump made by deploy/backup.sh into the database at $DATABASE_URL, in one
# transaction (all or nothing). Meant for an empty database: see README "Backups".
set -eu
dump="${1:?usage: restore.sh DUMP_FILE}"
pg_restore --single-transaction --exit-on-error --no-owner --no-privileges \
    --dbname="${DATABASE_URL:?set DATABASE_URL}" "$dump"
echo "restored $dump"
