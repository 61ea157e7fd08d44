#!/usr/bin/env bash
# The container suite: builds Vigil's images from the Dockerfile and runs compose.yaml as an operator would, with
# podman (daemonless; Debian's podman, buildah and podman-compose), on base images made from Debian packages
# (base-images.sh) because image registries are out of reach here. Checks: the stack comes up healthy, Vigil and the
# console run as a non-root user, the first write key posts an event, `stop` drains Vigil (exit status 0, not a
# SIGKILL), and after `down` and `up` (new containers, the same named volume) the event and the key are still there.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS

need=()
for tool in podman:podman buildah:buildah podman-compose:podman-compose debootstrap:debootstrap runc:runc; do
  command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
# Containers of one compose project find each other by service name through CNI's dnsname plugin.
[ -x /usr/lib/cni/dnsname ] || need+=(golang-github-containernetworking-plugin-dnsname)
if [ ${#need[@]} -gt 0 ]; then
  echo "container: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" != 0 ] && sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Podman's own temporary files (layers of a gigabyte and more) stay on disk, whatever TMPDIR `make test` gives the
# other suites.
export TMPDIR=/var/tmp
source .ci/container/podman-env.sh
bash .ci/container/base-images.sh

# The project name and ports are this run's own, so a second stack (or anything on 8080) is never disturbed.
project=vigil-ci-$$
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
export VIGIL_PORT=$(free_port) VIGIL_CONSOLE_PORT=$(free_port)
export VIGIL_POSTGRES_PASSWORD=$(openssl rand -hex 24)
# Docker's image format keeps HEALTHCHECK; podman's default (OCI) would drop it.
export BUILDAH_FORMAT=docker
compose() { podman-compose --project-name "$project" "$@"; }
vigil=${project}_vigil_1
console=${project}_console_1
api=http://127.0.0.1:$VIGIL_PORT
cleanup() {
  status=$?
  if [ $status -ne 0 ]; then
    for c in "${project}_postgres_1" "$vigil" "$console"; do echo "--- logs of $c" && podman logs --tail 40 "$c"; done 2>&1 || true
  fi
  compose down --volumes --timeout 0 >/dev/null 2>&1 || true
  podman volume rm --force "${project}_postgres-data" >/dev/null 2>&1 || true
  podman network rm --force "${project}_default" >/dev/null 2>&1 || true
  # The network is gone: the tests' Chromium browsers may open again while the images are pruned.
  [ -n "${network_lock:-}" ] && exec {network_lock}>&-
  # Layers of earlier builds (each source change leaves some) are Vigil's own, as their label says; the current
  # build's stay, tagged below, as the next run's cache.
  podman image prune --force --filter label=org.vigil.image >/dev/null 2>&1 || true
  rm -f "$VIGIL_PODMAN_CONF" "${VIGIL_PODMAN_BUILD_CONF:-}"
  echo "container: $((SECONDS - started)) s"
}
trap cleanup EXIT

fail() { echo "container: FAIL: $*" >&2; exit 1; }
# A step's start, with the seconds since the suite's: the log shows which step a slow run spent its time in.
step() { echo "container: [$((SECONDS - started)) s] $*" >&2; }
# wait_for URL WHAT: until the URL answers below 500 (three minutes at most).
wait_for() {
  for _ in $(seq 1 360); do
    curl -s -o /dev/null --max-time 2 -w '%{http_code}' "$1" | grep -q '^[1-4]' && return 0
    sleep 0.5
  done
  fail "$2 did not answer at $1"
}
# healthy CONTAINER: the image's HEALTHCHECK passes (run now: no systemd timer runs it here).
healthy() {
  for _ in $(seq 1 60); do
    podman healthcheck run "$1" >/dev/null 2>&1 && return 0
    sleep 1
  done
  fail "the healthcheck of $1 does not pass"
}

# The images' inputs, hashed: the files of the build context as .dockerignore defines it (context-files.cjs), the
# Dockerfile and compose.yaml, and the base image. When the images on hand were built from the same inputs, the
# build is skipped: podman reaches the same answer through its layer cache, but walking the context for three builds
# cost ~30 CPU-s, and minutes on a loaded machine. The record is outside the clone, so a fresh clone benefits too.
inputs_hash() {
  {
    { node .ci/container/context-files.cjs && printf '%s\0' Dockerfile compose.yaml; } | sort -z | xargs -0 sha256sum 2>&1
    podman image inspect --format '{{.Id}}' node:20-bookworm-slim
  } | sha256sum | cut -c1-16
}
image_ids() { podman image inspect --format '{{.Id}}' localhost/vigil-server:latest localhost/vigil-console:latest 2>/dev/null | tr '\n' ' '; }
built_record="${XDG_CACHE_HOME:-$HOME/.cache}/vigil/container-images/$(inputs_hash)"
if [ -s "$built_record" ] && [ "$(cat "$built_record")" = "$(image_ids)" ]; then
  step "the images are current (built from these inputs: $(basename "$built_record"))"
else
  step "building the images"
  building compose build >/tmp/vigil-container-build.$$.log 2>&1 || { tail -40 /tmp/vigil-container-build.$$.log; fail "build"; }
  rm -f /tmp/vigil-container-build.$$.log
  # A name for the build stages' last layer (a cached no-op build), so pruning keeps them as the next build's cache.
  building podman build --quiet --pull=never --target console-build -t localhost/vigil-build-cache:latest . >/dev/null ||
    fail "tagging the build cache"
  mkdir -p "$(dirname "$built_record")" && image_ids >"$built_record"
fi

# From here to the end (the cleanup's `down` included) containers and their network come and go, adding and removing
# interfaces on the host, and Chromium fails every request in flight when they change: under `make test` every
# Chromium the tests open holds VIGIL_NETWORK_LOCK shared, and this suite holds it exclusively until it exits.
if [ -n "${VIGIL_NETWORK_LOCK:-}" ]; then
  exec {network_lock}>>"$VIGIL_NETWORK_LOCK"
  flock -n -x "$network_lock" || { step "waiting for the tests' Chromium browsers to close"; flock -x "$network_lock"; }
fi
step "first start"
compose up -d >/dev/null 2>&1 || fail "compose up"
wait_for "$api/readyz" "Vigil"
wait_for "http://127.0.0.1:$VIGIL_CONSOLE_PORT/login" "the console"
healthy "$vigil"
healthy "$console"
for c in "$vigil" "$console"; do
  uid=$(podman exec "$c" id -u)
  [ "$uid" != 0 ] || fail "$c runs as root"
  [ "$(podman top "$c" user | tail -n +2 | sort -u)" = node ] || fail "$c has a process not run by node: $(podman top "$c" user)"
done

# The first start prints the write key once, on stdout, as the README says.
write_key=$(podman logs "$vigil" 2>/dev/null | grep -A1 '^ Write key' | tail -1 | tr -d ' ')
[[ $write_key == vigil_wk_* ]] || fail "no write key in the first start's output"
device=container-$$
event=$(curl -sf "$api/events" -H "Authorization: Bearer $write_key" -H 'Content-Type: application/json' \
  -d "{\"event\":\"login\",\"identity\":\"ana@example.com\",\"properties\":{\"device_id\":\"$device\",\"ip_address\":\"203.0.113.7\"}}") ||
  fail "POST /events with the first write key"
event_id=$(node -e 'console.log(JSON.parse(process.argv[1]).event_id)' "$event")

psql_vigil() { podman exec "${project}_postgres_1" psql -U vigil -d vigil -tAc "$1"; }
count_events() { psql_vigil "SELECT count(*) FROM events WHERE id = '$event_id'"; }
[ "$(count_events)" = 1 ] || fail "event $event_id is not in PostgreSQL"
[ "$(psql_vigil "SELECT current_setting('wal_compression') || ' ' || current_setting('max_wal_size') || ' ' || current_setting('min_wal_size') || ' ' || current_setting('backend_flush_after')")" = "lz4 4GB 1GB 256kB" ] ||
  fail "compose.yaml's WAL settings did not reach PostgreSQL"

step "stop, down and up again"
compose stop --timeout 30 >/dev/null 2>&1 || fail "compose stop"
# 0: SIGTERM reached `vigil serve` (PID 1) and it drained; 137 would be the SIGKILL after the grace period.
[ "$(podman inspect --format '{{.State.ExitCode}}' "$vigil")" = 0 ] || fail "Vigil did not drain on stop (exit $(podman inspect --format '{{.State.ExitCode}}' "$vigil"))"
compose down --timeout 30 >/dev/null 2>&1 || fail "compose down"
compose up -d >/dev/null 2>&1 || fail "compose up (second)"
wait_for "$api/readyz" "Vigil (second start)"
healthy "$vigil"
[ "$(count_events)" = 1 ] || fail "event $event_id was lost across down and up"
podman logs "$vigil" 2>/dev/null | grep -q '^ Write key' && fail "the second start printed new keys: the database was not kept"
# The first write key still works: keys live in the database, not in the container.
curl -sf -o /dev/null "$api/events" -H "Authorization: Bearer $write_key" -H 'Content-Type: application/json' \
  -d "{\"event\":\"login\",\"identity\":\"ana@example.com\",\"properties\":{\"device_id\":\"$device\"}}" ||
  fail "the first write key was not kept"
[ "$(psql_vigil "SELECT count(*) FROM events WHERE device_id = '$device'")" = 2 ] || fail "the second event was not stored"
echo "container: ok (event $event_id kept; images run as node; healthchecks pass; stop drains)"
