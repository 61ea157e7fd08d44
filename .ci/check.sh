#!/usr/bin/env bash
# The inner loop (`make check`): types of every package (sources and tests), Biome's lint and format check, and
# the unit tests, which need no database, browser or Android toolchain. `--static` stops after types and Biome
# (the suites run every test anyway). Assumes an installed, built workspace (`make start` or `make test` did it).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"

failed=()
step() {
  local name=$1 start=$SECONDS
  shift
  if "$@"; then echo "check: $name passed in $((SECONDS - start)) s"; else echo "check: $name FAILED in $((SECONDS - start)) s"; failed+=("$name"); fi
}

# The packages others build on must be built for their types to resolve.
for dist in drizzle/dist server/test-kit/dist clients/browser/dist; do
  [ -d "$dist" ] || { echo "check: $dist is missing: run \`pnpm build\` (or \`make start\`) first" >&2; exit 1; }
done

total=$SECONDS
# Each package whose inputs changed since its last passing check (content-hashed), two at a time (tsc is single-threaded).
step types node .ci/build.mjs --typecheck
# Formatting differences fail the check too; `pnpm exec biome check --write .` fixes them.
step biome pnpm exec biome check --reporter=summary .
if [ "${1:-}" != --static ]; then
  step unit-server pnpm --dir server exec vitest run --exclude '**/*.integration.test.ts' --reporter=dot
  step unit-node pnpm --dir clients/node exec vitest run --project unit --reporter=dot
  step unit-console pnpm --dir console exec vitest run lib --reporter=dot
  step unit-bench pnpm --dir bench exec vitest run --reporter=dot
fi
echo "check: $((SECONDS - total)) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "check: failed: ${failed[*]}"
  exit 1
fi
