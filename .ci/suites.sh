#!/usr/bin/env bash
# Runs every suite of every part (called by test.sh with PostgreSQL up). A failing suite does not stop the
# others, so one run shows every failure; the exit status is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
passed=()
suite() {
  local name=$1
  shift
  echo
  echo "=== $name: $* ==="
  if "$@"; then passed+=("$name"); else failed+=("$name"); fi
}

for pkg in drizzle server clients/node clients/browser console bench; do
  [ -f "$pkg/package.json" ] || continue
  if node -e "process.exit(require('./$pkg/package.json').scripts?.test ? 0 : 1)"; then
    suite "$pkg" pnpm --dir "$pkg" run test
  fi
done
[ -x clients/android/test.sh ] && suite clients/android clients/android/test.sh
[ -x clients/python/test.sh ] && suite clients/python clients/python/test.sh
# Schemathesis against a live server, driven by /openapi.json (under 3 minutes; see the script).
suite fuzz bash .ci/fuzz.sh
# The Dockerfile and compose.yaml, built and run with podman (see the README's "Run with containers").
suite container bash .ci/container/test.sh

echo
echo "suites: ${#passed[@]} passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed suites: ${failed[*]}"
  exit 1
fi
