#!/usr/bin/env bash
# The README's test command (`make test`): every test of every part, on a fresh Debian machine with Node 20.
# Installs what it needs (pnpm, PostgreSQL, Chromium, a JDK and Maven) and is safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
# suites.sh prints the whole run's time, install and build included, next to each suite's.
export VIGIL_TEST_STARTED_AT=${VIGIL_TEST_STARTED_AT:-$(date +%s)}
source .ci/bootstrap.sh
echo "test: install and build took $(($(date +%s) - VIGIL_TEST_STARTED_AT)) s"

# Debian packages the suites need: PostgreSQL for the integration suites, Chromium for browser tests,
# a JDK and Maven for the Android library, Python 3 with venv for the Python library and the fuzz suite.
missing=()
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
# The several-processes suite also runs Vigil through PgBouncer (session mode).
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
command -v chromium >/dev/null || missing+=(chromium)
# The fonts source's test tells installed families from a missing one; chromium only recommends Liberation.
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || missing+=(fonts-liberation)
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
# Debian splits venv/ensurepip out of python3 into python3-venv.
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3 python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test: installing ${missing[*]}" >&2
  apt_install "${missing[@]}"
fi

# Temporary files in memory: every test database is a copy of a ~40 MB template (PGlite directories, PostgreSQL's
# CREATE DATABASE … TEMPLATE), some hundreds per run, and on disk the kernel's writeback, journal and discards of
# those short-lived copies took about a tenth of the machine's CPU (PGlite pass alone: 197 CPU-s on disk, 174 in
# memory). Nothing a test checks depends on the disk: a killed process's writes are in the page cache either way,
# and the disk-full tests mount a small file system of their own. VIGIL_TEST_TMPDIR chooses the directory; by default
# /dev/shm/vigil-test when /dev/shm is a tmpfs with 4 GiB free, else the usual TMPDIR. The directory is kept across
# runs (the templates in it are reused), and what a crashed run left there is removed after a day.
if [ -z "${VIGIL_TEST_TMPDIR:-}" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
  [ "$(df -P -k /dev/shm | awk 'NR == 2 { print $4 }')" -ge $((4 * 1024 * 1024)) ]; then
  VIGIL_TEST_TMPDIR=/dev/shm/vigil-test
fi
if [ -n "${VIGIL_TEST_TMPDIR:-}" ]; then
  # World-writable and sticky like /tmp: the test PostgreSQL runs as the postgres user when the tests run as root.
  mkdir -p "$VIGIL_TEST_TMPDIR" && chmod 1777 "$VIGIL_TEST_TMPDIR"
  find "$VIGIL_TEST_TMPDIR" -mindepth 1 -maxdepth 1 -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
  export TMPDIR=$VIGIL_TEST_TMPDIR
  echo "test: temporary files in $TMPDIR"
fi

# One PostgreSQL server for every suite; each suite makes its own databases on it.
exec .ci/with-postgres.sh .ci/suites.sh
