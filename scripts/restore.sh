#!/usr/bin/env bash
# Restore a backup of scripts/backup.sh into a database (issue 39).
#
#   scripts/restore.sh backups/takhteh-<time>.dump [TARGET_DATABASE_URL]
#
# TARGET_DATABASE_URL defaults to $DATABASE_URL. The target should be a new,
# empty database (createdb); an existing one has the site's tables replaced
# (pg_restore --clean). The restore runs in one transaction and stops at the
# first error, so a failed restore changes nothing.
# RESTORE_FILES_TO=<folder>: also unpack the backup's files there (the paths
# they had, under that folder), e.g. / to put them back where they were.
set -euo pipefail

dump=${1:?usage: scripts/restore.sh DUMP [TARGET_DATABASE_URL]}
target=${2:-${DATABASE_URL:-}}
[ -n "$target" ] || { echo "give a target database URL or set DATABASE_URL" >&2; exit 2; }
[ -f "$dump" ] || { echo "no such backup: $dump" >&2; exit 2; }

pg_restore --no-owner --no-privileges --clean --if-exists --exit-on-error --single-transaction \
    --dbname="$target" "$dump"

files=${dump%.dump}.files.tar.gz
if [ -n "${RESTORE_FILES_TO:-}" ] && [ -f "$files" ]; then
    mkdir -p "$RESTORE_FILES_TO"
    tar -xzf "$files" -C "$RESTORE_FILES_TO"
fi
echo "restored $dump"
