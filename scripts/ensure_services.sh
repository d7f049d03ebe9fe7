#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on 127.0.0.1 and the test role exists.
# Idempotent; used by `make test` and .ci/run. Starts (or installs) a service
# only when it is not already running.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if ! command -v redis-server >/dev/null; then
    as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  mkdir -p /tmp/redis-takhteh
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir /tmp/redis-takhteh
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.5; done
fi

# The role the tests connect as (it creates and drops its own test databases).
psql_admin() { psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qtAc "$1" 2>/dev/null || \
               as_root su postgres -c "psql -d postgres -v ON_ERROR_STOP=1 -qtAc \"$1\""; }
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname='takhteh'")" != "1" ]; then
  psql_admin "CREATE ROLE takhteh LOGIN CREATEDB PASSWORD 'takhteh'"
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname='takhteh'")" != "1" ]; then
  psql_admin "CREATE DATABASE takhteh OWNER takhteh"
fi
