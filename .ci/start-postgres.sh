#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on 127.0.0.1:$PG_PORT (installing the Debian package if missing) and
# prints the DATABASE_URL to use. The cluster's data directory is printed on stderr for the caller to remove.
set -euo pipefail
PG_PORT="${PG_PORT:-55432}"
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDATA=$(mktemp -d /tmp/parlance-pg.XXXXXX)
chown postgres:postgres "$PGDATA"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -o "-h 127.0.0.1 -p $PG_PORT -k $PGDATA -c fsync=off -c max_connections=300" \
  -l "$PGDATA/server.log" -w start >&2
echo "$PGDATA" >&2
echo "postgres://postgres@127.0.0.1:$PG_PORT/postgres"
