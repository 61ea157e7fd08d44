#!/usr/bin/env bash
# Runs every suite of every part (called by test.sh with PostgreSQL up). Independent suites run side by side
# (VIGIL_TEST_JOBS at a time, 3 by default: most of a suite's time is spent waiting on databases, child servers
# and browsers, not on a core). Each suite's output goes to its own file and is printed whole when the suite ends,
# with its time, so the log reads one suite at a time. A failing suite does not stop the others, so one run shows
# every failure; the exit status is non-zero if any failed. The times of all suites are printed at the end: wall
# seconds and CPU seconds (user+sys of the suite's processes, as bash's `times` counts its waited-for children;
# the shared PostgreSQL server's own work is not in any suite's figure). CPU seconds over wall seconds above the
# number of cores means the run is CPU-bound: more suites at a time will not make it shorter.
set -uo pipefail
cd "$(dirname "$0")/.."

jobs_max=${VIGIL_TEST_JOBS:-3}
logs=$(mktemp -d /tmp/vigil-suites.XXXXXX)
trap 'rm -rf "$logs"' EXIT
run_start=$SECONDS

# The queue: name, then the command.
names=()
commands=()
queue() {
  names+=("$1")
  shift
  commands+=("$(printf '%q ' "$@")")
}

# Longest first (seconds of recent runs, 3 at a time on 2 cores, in brackets), so the short ones fill the gaps at the end.
# The server's two database passes as two suites side by side: storage tests run in both, surface tests in the
# PostgreSQL pass only, unit and single-driver tests in the PGlite pass; see testDrivers and surfaceDrivers in
# server/test-kit.
# The three suites that start first decide the run's length: they alone run at normal priority (the others under
# `nice`, so on a busy machine they get the CPU first and the others fill what they leave). The console's end-to-end
# suite is one of them: niced beside the server's passes (186-249 s), seeding its 3,000 devices took 188 s and the
# suite 476 s, the run's tail. The PGlite pass runs three files at a time, as much of its time goes waiting on the
# child servers of its CLI and fault tests.
critical=" server:pglite server:postgres console "
queue server:pglite env VIGIL_TEST_WORKERS=3 pnpm --dir server run test:pglite
queue server:postgres pnpm --dir server run test:postgres
package_suite() {
  [ -f "$1/package.json" ] || return 0
  if node -e "process.exit(require('./$1/package.json').scripts?.test ? 0 : 1)"; then queue "$1" pnpm --dir "$1" run test; fi
}
# The console's end-to-end suite is the longest of the rest and was the run's tail when it started after the
# container suite [290-345 under load, 476 niced].
package_suite console
# The Dockerfile and compose.yaml, built and run with podman (see the README's "Run with containers") [15 alone
# when the images are current, 116 under load; 35 when podman finds every layer cached; 816 when it must build].
queue container bash .ci/container/test.sh
# Python's tests mostly wait (Retry-After pauses, a server they start): 35-45 s of wall time on 11 s of CPU. Started
# last, they were the run's tail with one core idle; started early, others use the CPU meanwhile.
[ -x clients/python/test.sh ] && queue clients/python clients/python/test.sh # [40-85]
package_suite clients/browser # [100]
[ -x clients/android/test.sh ] && queue clients/android clients/android/test.sh # [90-150 warm, 300 fresh]
# Schemathesis against a live server, driven by /openapi.json (a fixed case budget; see the script) [40 alone,
# 120-145 under load].
queue fuzz bash .ci/fuzz.sh
package_suite clients/node # [50-70]
# Lint, formatting and types of every package [95].
queue check bash .ci/check.sh --static
package_suite server/test-kit # [23]
queue first-start bash .ci/first-start.test.sh # [15]
for pkg in clients/core bench drizzle; do package_suite "$pkg"; done # [7, 7, -]

declare -A pid_of_suite=() started=() elapsed=() status=() cpu=()
# Seconds of user+sys CPU from `times` output ("0m1.960s 0m0.029s" on its second line), "?" when missing.
cpu_seconds() {
  [ -s "$1" ] || { echo '?'; return; }
  sed -n 2p "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t + 0.5 }'
}
# Podman's containers come and go with network interfaces on the host, and Chromium fails every request in flight
# when the host's interfaces change (net::ERR_NETWORK_CHANGED, on loopback too: a console test failed so beside the
# container suite). Every Chromium the tests open holds this lock shared while it is open (the test kit's
# whileNetworkSteady); the container suite holds it exclusively while its containers run (its image builds use the
# host's network and add no interface).
export VIGIL_NETWORK_LOCK=$logs/network.lock
next=0
running=0
start_next() {
  local i=$next name=${names[$next]}
  next=$((next + 1))
  started[$name]=$SECONDS
  # `times` after the command: its second line is the user and system time of every process the suite waited for.
  local priority=()
  [[ "$critical" == *" $name "* ]] || priority=(nice -n 10)
  "${priority[@]}" bash -c "${commands[$i]}"'; rc=$?; times >'"$logs/$i.times"'; exit $rc' >"$logs/$i.log" 2>&1 </dev/null &
  pid_of_suite[$!]=$i
  running=$((running + 1))
}

while [ $next -lt ${#names[@]} ] || [ $running -gt 0 ]; do
  while [ $running -lt "$jobs_max" ] && [ $next -lt ${#names[@]} ]; do start_next; done
  wait -n -p done_pid
  rc=$?
  i=${pid_of_suite[$done_pid]}
  unset "pid_of_suite[$done_pid]"
  running=$((running - 1))
  name=${names[$i]}
  elapsed[$name]=$((SECONDS - started[$name]))
  status[$name]=$rc
  cpu[$name]=$(cpu_seconds "$logs/$i.times")
  # The first lines naming a failure, kept for the end of the run: a CI that shows only the log's tail still says
  # which test failed, not just which suite.
  [ "$rc" != 0 ] && sed 's/\x1b\[[0-9;]*m//g' "$logs/$i.log" | grep -E '(^| )(FAIL|FAILED|×|✗|✘|\[ERROR\]|Error:|AssertionError)( |$|:)' |
    grep -v -E '^ *(Test Files|Tests) ' | head -n 8 | cut -c1-300 >"$logs/$i.failures"
  echo
  echo "=== $name: ${commands[$i]}==="
  cat "$logs/$i.log"
  echo "=== $name: $([ "$rc" = 0 ] && echo passed || echo "FAILED (exit $rc)") in ${elapsed[$name]} s (${cpu[$name]} s CPU) ==="
done

echo
echo "suite                 result   seconds  CPU s"
failed=()
cpu_total=0
for name in "${names[@]}"; do
  result=passed
  [ "${status[$name]}" != 0 ] && result=FAILED && failed+=("$name")
  printf '%-21s %-8s %7s %6s\n' "$name" "$result" "${elapsed[$name]}" "${cpu[$name]}"
  [ "${cpu[$name]}" != '?' ] && cpu_total=$((cpu_total + cpu[$name]))
done
printf '%-21s %-8s %7s %6s\n' "suites (wall)" "" "$((SECONDS - run_start))" "$cpu_total"
[ -n "${VIGIL_TEST_STARTED_AT:-}" ] && printf '%-21s %-8s %7s\n' "make test (wall)" "" "$(($(date +%s) - VIGIL_TEST_STARTED_AT))"
echo "suites: $((${#names[@]} - ${#failed[@]})) passed, ${#failed[@]} failed ($jobs_max at a time on $(nproc) cores)"
if [ ${#failed[@]} -gt 0 ]; then
  for i in "${!names[@]}"; do
    [ -s "$logs/$i.failures" ] || continue
    echo "${names[$i]} failures (first lines):"
    sed 's/^/  /' "$logs/$i.failures"
  done
  echo "failed suites: ${failed[*]}"
  exit 1
fi
