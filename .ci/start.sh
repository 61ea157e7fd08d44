#!/usr/bin/env bash
# The README's start command (`make start`): builds Vigil and runs the server and the console on the embedded
# database (./.vigil/data), printing their URLs and, on the first start, the first keys. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/bootstrap.sh

export PORT="${PORT:-8080}"
# Request logs would bury the URLs and keys printed below; raise it with VIGIL_LOG_LEVEL=info.
export VIGIL_LOG_LEVEL="${VIGIL_LOG_LEVEL:-warn}"
# The console signs supervisors in from this machine and passes their address on in X-Forwarded-For, so that the
# server's per-address sign-in limit applies per browser, not to the console as a whole.
export VIGIL_TRUSTED_PROXIES="${VIGIL_TRUSTED_PROXIES:-127.0.0.1,::1}"
CONSOLE_PORT="${CONSOLE_PORT:-3000}"
export VIGIL_API_URL="${VIGIL_API_URL:-http://127.0.0.1:$PORT}"

node server/dist/cli.js serve &
server=$!
trap 'kill $server $console 2>/dev/null; wait 2>/dev/null' EXIT INT TERM

# The console starts once the server answers, so its URL is printed after the server's.
for _ in $(seq 1 300); do
  node -e "fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$VIGIL_API_URL/healthz" && break
  kill -0 $server 2>/dev/null || exit 1
  sleep 0.2
done
# The console reads VIGIL_API_URL (exported above) and talks to the server from its own side only.
(cd console && exec node_modules/.bin/next start -p "$CONSOLE_PORT" -H 127.0.0.1 >/dev/null) &
console=$!
for _ in $(seq 1 150); do
  node -e "fetch(process.argv[1], {redirect: 'manual'}).then(r => process.exit(r.status < 500 ? 0 : 1), () => process.exit(1))" \
    "http://127.0.0.1:$CONSOLE_PORT/login" && break
  kill -0 $console 2>/dev/null || { echo "The console did not start (is port $CONSOLE_PORT free? set CONSOLE_PORT)." >&2; exit 1; }
  sleep 0.2
done
echo "Vigil console: http://127.0.0.1:$CONSOLE_PORT  (sign in with the admin account printed on the first start)"
echo "Press Ctrl-C to stop."
wait $server
