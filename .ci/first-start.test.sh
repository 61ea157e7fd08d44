#!/usr/bin/env bash
# The first start reads clean: on a machine whose pnpm is not the pinned one, the bootstrap's pnpm step installs
# the pinned version and prints no ERROR (issue: pnpm's self-switch refused an unsigned download and said so first).
# Runs in a throwaway HOME and npm prefix; needs only the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d /tmp/vigil-first-start.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pinned=$(node -p "require('./package.json').packageManager.split('@')[1]")
# Any other published pnpm 10 stands in for the newcomer's.
other=10.34.7
[ "$pinned" = "$other" ] && other=10.34.6

export HOME=$tmp/home npm_config_prefix=$tmp/home/.local npm_config_cache=$tmp/npm-cache
mkdir -p "$HOME"
npm install -g --silent "pnpm@$other" >/dev/null 2>&1
export PATH="$HOME/.local/bin:$PATH"
[ "$(npm_config_manage_package_manager_versions=false pnpm --version)" = "$other" ] || { echo "first-start: setup failed" >&2; exit 1; }

out=$(cd "$root" && bash -c 'set -euo pipefail; source .ci/pnpm.sh; pnpm --version' 2>&1)
fail=0
if grep -q 'ERROR' <<<"$out"; then echo "first-start: the bootstrap printed an error:"; echo "$out"; fail=1; fi
last=$(tail -n 1 <<<"$out")
if [ "$last" != "$pinned" ]; then echo "first-start: pnpm after the bootstrap is '$last', not the pinned $pinned"; fail=1; fi
# A second start has nothing to install and prints nothing but the version.
again=$(cd "$root" && bash -c 'set -euo pipefail; source .ci/pnpm.sh; pnpm --version' 2>&1)
if [ "$again" != "$pinned" ]; then echo "first-start: the second start printed: $again"; fail=1; fi
[ $fail = 0 ] && echo "first-start: ok (pnpm $other replaced by $pinned, no error printed)"
exit $fail
