#!/usr/bin/env bash
# The first start reads clean: on a machine whose pnpm is not the pinned one, the bootstrap's pnpm step installs
# the pinned version and prints no ERROR (pnpm's self-switch refused an unsigned download and said so first), and the
# first install of a fresh copy prints no ERROR, WARN or warning box (such as "Ignored build scripts").
# Runs in a throwaway HOME and npm prefix, on a copy of the tracked files; needs only the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d /tmp/vigil-first-start.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pinned=$(node -p "require('./package.json').packageManager.split('@')[1]")
# Any other published pnpm 10 stands in for the newcomer's.
other=10.34.7
[ "$pinned" = "$other" ] && other=10.34.6

# The packages come from the usual store (the copy is fresh, not the download).
store=$(npm_config_manage_package_manager_versions=false pnpm store path 2>/dev/null || true)
# npm's download cache outlives the run (.cache is ignored by git), so a second run fetches neither pnpm again; the
# npm prefix and HOME, where the installed pnpm lives, are still new each time.
export HOME=$tmp/home npm_config_prefix=$tmp/home/.local npm_config_cache=$root/.cache/first-start-npm
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

# The first install of a fresh copy, as the bootstrap runs it: a warning that is not one (pnpm's box about install
# scripts we leave unrun on purpose) hides the ones that are, so any box, WARN or ERROR fails.
mkdir "$tmp/copy"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -xf - -C "$tmp/copy"
install=$(cd "$tmp/copy" && bash -c 'set -euo pipefail; source .ci/pnpm.sh
  pnpm install --frozen-lockfile --prefer-offline --reporter=append-only ${0:+--store-dir "$0"}' "$store" 2>&1) || {
  echo "first-start: the first install failed:"; echo "$install"; fail=1; }
if grep -qE 'ERROR|WARN|╭' <<<"$install"; then echo "first-start: the first install printed a warning or an error:"; echo "$install"; fail=1; fi

[ $fail = 0 ] && echo "first-start: ok (pnpm $other replaced by $pinned, no error printed; a fresh copy installs without a warning)"
exit $fail
