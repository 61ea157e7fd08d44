#!/bin/sh
# The part of the real postgres image's docker-entrypoint.sh that Vigil's compose file relies on: initialise an
# empty PGDATA with POSTGRES_USER (default postgres), POSTGRES_PASSWORD and POSTGRES_DB, then run the server as
# the postgres user, password-checked (scram-sha-256) from other hosts.
set -eu
if [ "${1:-}" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    if [ "$db" != postgres ]; then
      pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
      psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -q -c "CREATE DATABASE \"$db\""
      pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres: initialised $PGDATA (user $user, database $db)"
  fi
fi
exec "$@"
