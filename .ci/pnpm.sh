#!/usr/bin/env bash
# Sourced by bootstrap.sh (and by first-start.test.sh): puts exactly the pnpm that package.json pins first on PATH.
#
# Why not just run `pnpm`: pnpm 10 switches itself to the pinned version (manage-package-manager-versions) and
# refuses a download whose npm signature it cannot check, which on a registry or mirror that serves no signatures
# prints ` ERROR  Refusing to run pnpm@…` on a newcomer's first screen, although nothing is wrong. So the installed
# pnpm is asked its own version with the switch off, and a different version is replaced by the pinned one from
# the npm registry with npm (whose own checks apply) instead of by pnpm's self-switch.
PNPM_VERSION=$(node -p "require('./package.json').packageManager.split('@')[1]")
export PATH="$HOME/.local/bin:$PATH"

# The pnpm on PATH, without letting it switch versions (an npm_config_ variable: pnpm reads no pnpm_config_ one).
installed_pnpm_version() {
  command -v pnpm >/dev/null && npm_config_manage_package_manager_versions=false pnpm --version 2>/dev/null
}

if [ "$(installed_pnpm_version)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm $PNPM_VERSION (the version package.json pins)" >&2
  if [ -w "$(npm prefix -g)/lib" ] 2>/dev/null || [ "$(id -u)" = 0 ]; then
    npm install -g --silent "pnpm@$PNPM_VERSION"
  else
    npm install -g --silent --prefix "$HOME/.local" "pnpm@$PNPM_VERSION"
  fi
  hash -r
  if [ "$(installed_pnpm_version)" != "$PNPM_VERSION" ]; then
    echo "bootstrap: pnpm $PNPM_VERSION was installed but $(command -v pnpm) comes first on PATH; remove it or put $(npm prefix -g)/bin first" >&2
    exit 1
  fi
fi
