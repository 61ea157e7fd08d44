#!/usr/bin/env bash
# Shared by `make start` and `make test`: makes sure pnpm exists and the workspace is installed and built.
# Safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

export NEXT_TELEMETRY_DISABLED=1

if ! command -v node >/dev/null; then
  echo "Vigil needs Node.js 20 or later on PATH." >&2
  exit 1
fi
source .ci/pnpm.sh

# apt_install PACKAGE... — installs Debian packages that are missing (root, or through sudo).
apt_install() {
  local sudo=""
  [ "$(id -u)" != 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${VIGIL_APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq
    export VIGIL_APT_UPDATED=1
  fi
  $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

pnpm install --frozen-lockfile --reporter=append-only 2>&1 | grep -vE '^(Progress|Packages):' || true
# What `pnpm build` builds, skipping each package whose inputs (content-hashed) are the ones of its last build.
node .ci/build.mjs
