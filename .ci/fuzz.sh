#!/usr/bin/env bash
# The fuzz suite: Schemathesis, driven by GET /openapi.json, against a real Vigil server on a fresh PostgreSQL
# database, with a write key, a client key, an admin token and an allowed page Origin. It fails on any 5xx and on
# any answer the document does not describe (status code, media type or body schema), and on any error the server
# logs. Bounded by a case budget, not a clock: VIGIL_FUZZ_EXAMPLES (default 50) generated cases per operation in the
# fuzzing phase and as many stateful scenarios, after the examples and the coverage phase's schema-derived edge
# cases (every operation, every phase, the same cases for the same seed whatever the machine's load; a clock budget
# tested 2,788 cases on a quiet machine and 399 on a busy one). Schemathesis gets no --max-time: given one, its
# fuzzing and stateful phases keep drawing cases until that time is spent, whatever --max-examples says (the suite
# ran 150 s on every machine, loaded or not). VIGIL_FUZZ_SECONDS (default 300) is only a ceiling, from outside: the
# run fails there and is killed 5 s later.
# Run it alone with `bash .ci/fuzz.sh` (after `pnpm build`); it starts its own PostgreSQL when none is given.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${VIGIL_TEST_DATABASE_URL:-}" ]; then exec .ci/with-postgres.sh "$0" "$@"; fi

SCHEMATHESIS_VERSION=4.32.5
SECONDS_BUDGET="${VIGIL_FUZZ_SECONDS:-300}"
EXAMPLES="${VIGIL_FUZZ_EXAMPLES:-50}"
VENV=.cache/fuzz-venv
ORIGIN=http://fuzz.localhost
say() { echo "fuzz: $*" >&2; }

[ -f server/dist/cli.js ] || { say "server/dist/cli.js is missing: run pnpm build first"; exit 1; }

# A private virtualenv with a pinned Schemathesis, made once and reused.
if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  say "installing Schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

WORK=$(mktemp -d -t vigil-fuzz.XXXXXX)
DB="vigil_fuzz_$$_$RANDOM"
source .ci/test-database.sh
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  test_database_drop "$DB"
  rm -rf "$WORK"
}
trap cleanup EXIT

DATABASE_URL=$(test_database_create "$DB")
export DATABASE_URL
# Rate limits off so the budget goes to inputs, not to 429s; the page origin the /js routes will accept.
export VIGIL_RATE_LIMIT_RPS=0 VIGIL_JS_COLLECT_RPS=0 VIGIL_JS_EVENTS_RPS=0 VIGIL_LOGIN_ATTEMPTS_PER_MINUTE=10000
export VIGIL_JS_ALLOWED_ORIGINS="$ORIGIN" VIGIL_LOG_LEVEL=warn

# PORT=0: the kernel picks a free port; the server prints the address it listens on, then JSON log lines. The log
# exists before the server starts: the background job opens its redirection only once it runs, and on a loaded
# machine the loop below read it first ("can't read server.log") and `set -e` ended the suite.
: >"$WORK/server.log"
PORT=0 node server/dist/cli.js serve >"$WORK/server.log" 2>&1 &
server=$!
BASE=""
for _ in $(seq 1 300); do
  BASE=$(sed -n 's/^Vigil server: \(http:[^ ]*\).*/\1/p' "$WORK/server.log")
  [ -n "$BASE" ] && break
  kill -0 "$server" 2>/dev/null || { say "the server did not start:"; cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$BASE" ] || { say "the server did not start in 60 s"; exit 1; }
# The first start's keys and admin (printed once, as for any new install), and an admin API token made with them.
credentials=$(node .ci/fuzz/credentials.mjs "$BASE" "$WORK/server.log")
eval "$credentials"
export VIGIL_FUZZ_ORIGIN="$ORIGIN"
say "Vigil on $BASE (database $DB), Schemathesis $SCHEMATHESIS_VERSION, $EXAMPLES cases per operation (at most ${SECONDS_BUDGET}s)"

status=0
timeout --kill-after=5 "$SECONDS_BUDGET" \
  "$VENV/bin/schemathesis" --config-file .ci/fuzz/schemathesis.toml run "$BASE/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "$EXAMPLES" --workers 1 --seed "${VIGIL_FUZZ_SEED:-$RANDOM}" \
  --no-color || status=$?

if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  say "FAILED: Schemathesis did not finish within $SECONDS_BUDGET s"
elif [ "$status" != 0 ]; then
  say "FAILED: see the failures above (each with a curl command that reproduces it)"
fi
errors=$(node .ci/fuzz/server-errors.mjs <"$WORK/server.log")
if [ -n "$errors" ]; then
  say "the server logged these errors:"
  echo "$errors" >&2
  # Nothing fails on purpose here (no database fault is injected), so a logged error is a bug even when the answer
  # was a documented one, such as a 503 for a request the server could not parse.
  if [ "$status" = 0 ]; then
    say "FAILED: every answer was as documented, but the server logged errors"
    status=1
  fi
fi
[ "$status" = 0 ] && say "passed: no 5xx and every answer as documented"
exit "$status"
