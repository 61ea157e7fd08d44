#!/usr/bin/env bash
# Tests of the Python library: `mypy --strict` (checked as Python 3.9 code), then pytest against the real
# Vigil server, which the test session starts (`node server/dist/cli.js serve` on a temporary embedded
# database, or on a throwaway database of VIGIL_TEST_DATABASE_URL). honeypot-py, pinned, is tested against
# it too. Idempotent: the virtualenv in clients/python/.venv is created once and reinstalled only when
# pyproject.toml or the pins change. Assumes the server is built (`pnpm install && pnpm build` at the root).
# Extra arguments go to pytest, e.g. `./test.sh -k honeypot`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
HONEYPOT_PY_VERSION=0.2.19

if [ ! -f "$repo_root/server/dist/cli.js" ]; then
  echo "clients/python: $repo_root/server/dist/cli.js is missing; run 'pnpm install && pnpm build' at the repository root" >&2
  exit 1
fi
python="${PYTHON:-python3}"
# The library supports 3.9; the pinned test tools (Django 5.2, pytest 9) need 3.10.
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  echo "clients/python: the tests need Python 3.10 or newer ($python is $("$python" --version 2>&1)); set PYTHON" >&2
  exit 1
fi

venv="$here/.venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
stamp="$venv/.vigil-test-install"
want="$(cat "$here/pyproject.toml" "$0" | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "clients/python: installing the library and its test tools into $venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$here[test]" "honeypot-py==$HONEYPOT_PY_VERSION"
  echo "$want" > "$stamp"
fi

cd "$here"
echo "clients/python: mypy --strict"
"$venv/bin/mypy" --strict
echo "clients/python: pytest"
exec "$venv/bin/pytest" -q "$@"
