# Sourced by with-postgres.sh, for Debian's PostgreSQL programs, and by scripts that run a Vigil server of their own
# under `make test`: a database of its own on the run's PostgreSQL server (VIGIL_TEST_DATABASE_URL, from
# with-postgres.sh), made and dropped by name.

# The newest installed PostgreSQL's bin directory; empty when none is.
test_database_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

test_database_psql() {
  echo "$(test_database_pg_bin)/psql"
}

# Makes database $1 and prints its URL.
test_database_create() {
  "$(test_database_psql)" -q "$VIGIL_TEST_DATABASE_URL" -c "CREATE DATABASE $1" >/dev/null || return 1
  node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$VIGIL_TEST_DATABASE_URL" "$1"
}

# Drops database $1, whoever is still connected; quiet, and never fails the caller's cleanup.
test_database_drop() {
  "$(test_database_psql)" -q "$VIGIL_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null 2>&1 || true
}
