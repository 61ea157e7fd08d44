#!/usr/bin/env bash
# Builds the Vigil Android library and runs its tests (unit, Robolectric, and contract tests against the real
# server), then checks the published AAR (packaging/check.sh). Idempotent. Assumes the server is built:
# `pnpm install && pnpm build` at the repository root.
# Extra arguments go to Maven, e.g. `./test.sh -Pregistry-contract` or `./test.sh -Dtest=SyncClassificationTest`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"

if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
  echo "clients/android: installing maven and openjdk-17-jdk-headless" >&2
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -y
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y maven openjdk-17-jdk-headless
fi

# Robolectric runs Android 15 (API 35) on Java 17 or newer.
java_major="$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')"
if [ "${java_major:-0}" -lt 17 ]; then
  echo "clients/android: needs JDK 17+, found javac ${java_major}; set JAVA_HOME to a JDK 17" >&2
  exit 1
fi

if ! command -v node >/dev/null 2>&1; then
  echo "clients/android: node is required to start the Vigil server for the contract tests" >&2
  exit 1
fi
if [ ! -f "$repo_root/server/dist/cli.js" ]; then
  echo "clients/android: $repo_root/server/dist/cli.js is missing; run 'pnpm install && pnpm build' at the repository root" >&2
  exit 1
fi

# Under `make test` (VIGIL_TEST_DATABASE_URL names the run's PostgreSQL server) the contract server runs on a database
# of its own there, as the Node and Python libraries' servers do: it starts for a third of the CPU of a fresh
# embedded one, whose initdb and migrations run in WebAssembly. Otherwise on a temporary embedded database.
if [ -n "${VIGIL_TEST_DATABASE_URL:-}" ]; then
  source "$repo_root/.ci/test-database.sh"
  database="vigil_android_$$_$RANDOM"
  trap 'test_database_drop "$database"' EXIT
  # Read by ContractServer in the test JVM, which inherits Maven's environment.
  VIGIL_CONTRACT_DATABASE_URL=$(test_database_create "$database")
  export VIGIL_CONTRACT_DATABASE_URL
fi

cd "$here"
# -ntp keeps download noise out; INFO level stays on so Surefire prints its per-class lines and summary.
# -Dtest=… selects classes of the library module; the shim module has none, which must not fail the build.
# `deploy` runs the tests (on API 23 and 35, robolectric.properties), then builds the AAR, sources and javadoc jars
# and publishes them to target/maven-repo; packaging/check.sh then checks that publication as an app would use it.
mvn -B -ntp deploy -Dvigil.repoRoot="$repo_root" -Dsurefire.failIfNoSpecifiedTests=false "$@"
bash "$here/packaging/check.sh"
