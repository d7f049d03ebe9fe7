#!/usr/bin/env bash
# Back the site up (issue 39): the PostgreSQL database in pg_dump's custom
# format, and the files the site needs beside it, into one folder, keeping
# the newest BACKUP_KEEP backups.
#
#   DATABASE_URL=postgres://user:password@host:5432/name scripts/backup.sh [folder]
#
# folder       : where the backups go (default: $BACKUP_DIR, else ./backups)
# BACKUP_KEEP  : how many backups to keep (default 14); older ones are removed
# BACKUP_FILES : space-separated files to keep with each dump (default: the
#                embedded site's secret, $DATA_DIR/secret_key, when it exists;
#                add an environment file holding SECRET_KEY if yours is one)
#
# Each backup is takhteh-<UTC time>.dump (pg_restore reads it: scripts/restore.sh)
# and, when there are files, takhteh-<UTC time>.files.tar.gz. The dump is
# written under a temporary name and checked (pg_restore --list) before it
# takes its real name, so a failed run never leaves a backup that looks whole.
# Prints the dump's path.
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL (postgres://user:password@host:5432/name)}"
dir=${1:-${BACKUP_DIR:-backups}}
keep=${BACKUP_KEEP:-14}
case $keep in '' | *[!0-9]* | 0) echo "BACKUP_KEEP must be a positive number" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
data_dir=${DATA_DIR:-$root/db}
files=${BACKUP_FILES-$data_dir/secret_key}

umask 077
mkdir -p "$dir"
stamp=$(date -u +%Y%m%dT%H%M%S%3NZ)
name="takhteh-$stamp"
partial="$dir/.$name.dump.partial"
trap 'rm -f "$partial" "$dir/.$name.files.partial"' EXIT

pg_dump --format=custom --compress=6 --no-owner --no-privileges --dbname="$DATABASE_URL" --file="$partial"
pg_restore --list "$partial" >/dev/null
mv "$partial" "$dir/$name.dump"

present=()
for f in $files; do
    [ -f "$f" ] && present+=("$f")
done
if [ ${#present[@]} -gt 0 ]; then
    tar -czf "$dir/.$name.files.partial" "${present[@]}" 2>/dev/null
    mv "$dir/.$name.files.partial" "$dir/$name.files.tar.gz"
fi

# Retention: the newest $keep dumps stay (names sort by time), with their files.
mapfile -t dumps < <(find "$dir" -maxdepth 1 -name 'takhteh-*.dump' -printf '%f\n' | sort)
excess=$((${#dumps[@]} - keep))
for ((i = 0; i < excess; i++)); do
    old=${dumps[$i]%.dump}
    rm -f "$dir/$old.dump" "$dir/$old.files.tar.gz"
done

echo "$dir/$name.dump"
