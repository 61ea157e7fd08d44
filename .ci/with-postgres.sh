#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server (Debian's package) on a free loopback port,
# exported as VIGIL_TEST_DATABASE_URL. The server and its data are removed when the command ends.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/test-database.sh"

SUDO=""
[ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO=sudo
if [ -z "$(test_database_pg_bin)" ]; then
  echo "with-postgres: installing Debian's postgresql package" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq postgresql >/dev/null
fi
BIN=$(test_database_pg_bin)

# PostgreSQL refuses to run as root: as root, run it as the postgres user the package created.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# In TMPDIR: `make test` points it at memory (see test.sh); the benchmarks leave it on disk, whose flushes they measure.
DIR=$(mktemp -d -t vigil-pg.XXXXXX)
chmod 755 "$DIR"
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

# CPU seconds of the server and of its backends that have ended (user and system), which no suite's figure counts.
server_cpu() {
  local pid
  pid=$(head -n 1 "$DIR/data/postmaster.pid" 2>/dev/null) && [ -r "/proc/$pid/stat" ] || return 0
  sed 's/^.*) //' "/proc/$pid/stat" | awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($12 + $13 + $14 + $15) / hz + 0.5 }'
}
cleanup() {
  local cpu
  cpu=$(server_cpu)
  [ -n "$cpu" ] && echo "with-postgres: the PostgreSQL server used $cpu CPU-s" >&2
  as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT

as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
# Loopback only, socket in our own directory; fsync stays on so durability tests mean something.
# VIGIL_TEST_PG_OPTIONS adds server options (e.g. `-c shared_buffers=16MB` for a scaled-down history benchmark).
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 ${VIGIL_TEST_PG_OPTIONS:-}" start >/dev/null

export VIGIL_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2
"$@"
