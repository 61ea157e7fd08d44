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

# One PostgreSQL server for every suite; each suite makes its own databases on it.
exec .ci/with-postgres.sh .ci/suites.sh
