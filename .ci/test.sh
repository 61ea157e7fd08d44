#!/usr/bin/env bash
# The README's test command (`make test`): every test of every part, on a fresh Debian machine with Node 20.
# Installs what it needs (pnpm, PostgreSQL, Chromium, a JDK and Maven) and is safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/bootstrap.sh

# Debian packages the suites need: PostgreSQL for the integration suites, Chromium for browser tests,
# a JDK and Maven for the Android library, Python's venv for the fuzz suite's Schemathesis.
missing=()
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null || missing+=(chromium)
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test: installing ${missing[*]}" >&2
  apt_install "${missing[@]}"
fi

# One PostgreSQL server for every suite; each suite makes its own databases on it.
exec .ci/with-postgres.sh .ci/suites.sh
